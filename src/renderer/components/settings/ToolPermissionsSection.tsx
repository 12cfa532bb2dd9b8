// Settings → Tool permissions: "always allow" per tool, global across tasks. Main decides which
// tools may have it (from their traits) and lists them; commands and scripts never can, because
// their grants cover one exact command, so the section only says so.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolPermission } from '../../../shared/contract';
import { getApi } from '../../state/api';
import { toErrorInfo, type ErrorInfo } from '../../state/notices';
import { toolLabel } from '../../../shared/tool-names';
import { ErrorText } from '../ErrorText';

export function ToolPermissionsSection() {
  const { t } = useTranslation();
  const [tools, setTools] = useState<ToolPermission[]>([]);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setTools((await getApi().client.listToolPermissions({})).tools);
    } catch (err) {
      setError(toErrorInfo(err));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const toggle = async (name: string, alwaysAllow: boolean) => {
    setBusy(name);
    setError(null);
    try {
      const updated = await getApi().client.setToolPermission({ name, always_allow: alwaysAllow });
      setTools((list) => list.map((tool) => (tool.name === name ? updated : tool)));
    } catch (err) {
      setError(toErrorInfo(err));
    } finally {
      setBusy(null);
    }
  };

  // A tool that may not be always allowed is shown only while a stored grant for it lingers, so it can be removed.
  const shown = tools.filter((tool) => tool.grantable || tool.always_allow);

  return (
    <section className="settings-section" data-testid="tool-permissions-section">
      <h2 tabIndex={-1}>{t('permissions.title')}</h2>
      <p className="muted">{t('permissions.intro')}</p>
      {error && (
        <div className="inline-error" role="alert" data-testid="tool-permissions-error">
          <ErrorText error={error} />
        </div>
      )}
      <ul className="skill-list" data-testid="tool-permissions-list">
        {shown.map((tool) => (
          <li key={tool.name} className="skill-item">
            <label className="control control-check">
              <input
                type="checkbox"
                checked={tool.always_allow}
                disabled={busy === tool.name || (!tool.grantable && !tool.always_allow)}
                onChange={(e) => void toggle(tool.name, e.target.checked)}
                data-testid={`tool-permission-${tool.name}`}
              />
              <span title={tool.name}>{toolLabel(tool.name, t)}</span>
              <span className="badge">{tool.kind ? t(`toolKind.${tool.kind}`) : t('permissions.notLoaded')}</span>
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className="muted">{t('permissions.none')}</li>}
      </ul>
      <p className="muted" data-testid="tool-permissions-commands-note">
        {t('permissions.commandsNote')}
      </p>
    </section>
  );
}
