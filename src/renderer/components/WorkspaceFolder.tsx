// A coding task's project folder: shown in the chat header, chosen through a two-step dialog
// because the agent's tools will read, edit and run commands there.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Task } from '../../shared/contract';
import { isAbsolutePath } from '../lib/paths';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { useTasks } from '../state/tasks-store';
import { Icon } from './Icon';
import { ErrorText } from './ErrorText';

export function WorkspaceFolder({ task }: { task: Task }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className="workspace-folder" data-testid="workspace-folder">
      <span className="control-label">{t('workspace.label')}</span>
      {task.workspace_path ? (
        <code className="workspace-path" title={task.workspace_path} data-testid="workspace-path">
          {task.workspace_path}
        </code>
      ) : (
        <span className="muted" data-testid="workspace-path">
          {t('workspace.none')}
        </span>
      )}
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} data-testid="workspace-choose">
        {t('workspace.choose')}
      </button>
      {open && <WorkspaceDialog task={task} onClose={() => setOpen(false)} />}
    </div>
  );
}

function WorkspaceDialog({ task, onClose }: { task: Task; onClose: () => void }) {
  const { t } = useTranslation();
  const patch = useTasks((s) => s.patch);
  const [path, setPath] = useState(task.workspace_path ?? '');
  const [step, setStep] = useState<'enter' | 'confirm'>('enter');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const trimmed = path.trim();
  const valid = isAbsolutePath(trimmed);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const save = async (value: string | null) => {
    setBusy(true);
    setError(null);
    try {
      await patch(task.id, { workspace_path: value });
      onClose();
    } catch (err) {
      setError(toErrorInfo(err));
      setStep('enter');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="modal-backdrop" onMouseDown={onClose}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="workspace-title" onMouseDown={(e) => e.stopPropagation()} data-testid="workspace-dialog">
        <h2 id="workspace-title" className="modal-title">
          {t('workspace.dialogTitle')}
        </h2>
        {step === 'enter' ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (valid) setStep('confirm');
            }}
          >
            <label className="field">
              <span className="field-label">{t('workspace.pathLabel')}</span>
              <input
                className="input input-block"
                autoFocus
                spellCheck={false}
                placeholder={t('workspace.pathPlaceholder')}
                value={path}
                onChange={(e) => {
                  setPath(e.target.value);
                  setError(null);
                }}
                data-testid="workspace-input"
              />
            </label>
            {trimmed !== '' && !valid && <div className="field-hint warning">{t('workspace.notAbsolute')}</div>}
            {error && (
              <div className="inline-error" role="alert" data-testid="workspace-error">
                <ErrorText error={error} />
                {error.code === 'workspace_refused' && <div className="field-hint">{t('workspace.refusedHint')}</div>}
              </div>
            )}
            <div className="modal-actions">
              {task.workspace_path && (
                <button type="button" className="btn btn-ghost-danger modal-action-left" disabled={busy} onClick={() => void save(null)} data-testid="workspace-clear">
                  {t('workspace.clear')}
                </button>
              )}
              <button type="button" className="btn" onClick={onClose}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="btn btn-primary" disabled={!valid} data-testid="workspace-next">
                {t('workspace.next')}
              </button>
            </div>
          </form>
        ) : (
          <>
            <div className="workspace-warning">
              <Icon name="alert" size={16} />
              <div>
                <p className="modal-body">{t('workspace.confirmBody')}</p>
                <code className="workspace-path">{trimmed}</code>
              </div>
            </div>
            <div className="modal-actions">
              <button type="button" className="btn" disabled={busy} onClick={() => setStep('enter')} data-testid="workspace-back">
                {t('common.back')}
              </button>
              <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void save(trimmed)} data-testid="workspace-confirm">
                {busy && <span className="spinner" />}
                {t('workspace.confirm')}
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
