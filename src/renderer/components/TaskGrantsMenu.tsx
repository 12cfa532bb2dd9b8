// The chat header's list of what this task allows without asking — "Allow for this task" answers and
// an approved outline's or plan's writes under work/ — each revocable: the tool (or command) asks again from
// its next call.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi } from '../state/api';
import { useChat } from '../state/chat-store';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { toolLabel } from '../../shared/tool-names';
import { ErrorText } from './ErrorText';
import { useMenu } from './menu/use-menu';

interface Grant {
  tool: string;
  scope: string;
}

export function TaskGrantsMenu({ taskId }: { taskId: string }) {
  const { t } = useTranslation();
  const [grants, setGrants] = useState<Grant[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const menu = useMenu();
  // A run's end (an answer "for this task", an approved outline) may have added grants.
  const runs = useChat((s) => s.runs);

  const load = useCallback(async () => {
    try {
      setGrants((await getApi().client.listTaskGrants({ task_id: taskId })).grants);
      setError(null);
    } catch (err) {
      setError(toErrorInfo(err));
    }
  }, [taskId]);

  useEffect(() => {
    void load();
  }, [load, runs]);

  const revoke = async (grant: Grant) => {
    try {
      await getApi().client.revokeTaskGrant({ task_id: taskId, tool: grant.tool, scope: grant.scope });
      await load();
    } catch (err) {
      setError(toErrorInfo(err));
    }
  };

  const count = grants?.length ?? 0;
  return (
    <div className="control mcp-menu" {...menu.rootProps}>
      <button {...menu.buttonProps} type="button" className="btn btn-small" aria-haspopup="true" data-testid="task-grants">
        {t('grants.menu', { count })}
      </button>
      {menu.open && (
        <div className="menu mcp-menu-popover" {...menu.menuProps} data-testid="task-grants-popover">
          <div className="menu-heading">{t('grants.heading')}</div>
          {error && (
            <div className="inline-error">
              <ErrorText error={error} />
            </div>
          )}
          {count === 0 && <div className="muted menu-item">{t('grants.none')}</div>}
          {grants?.map((grant) => (
            <div key={`${grant.tool}\u0000${grant.scope}`} className="menu-item task-grant" data-testid="task-grant" data-tool={grant.tool} data-scope={grant.scope}>
              <span className="task-grant-text">
                <span className="menu-item-title">{toolLabel(grant.tool, t)}</span>
                <span className="menu-item-hint">{grant.scope === '' ? t('grants.everyCall') : grant.scope === 'work/' ? t('grants.workArea') : <code>{grant.scope}</code>}</span>
              </span>
              <button type="button" className="btn btn-small" onClick={() => void revoke(grant)} data-testid="task-grant-revoke">
                {t('grants.revoke')}
              </button>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
