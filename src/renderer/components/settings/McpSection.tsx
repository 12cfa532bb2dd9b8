// Settings → MCP servers: the config as JSON (Claude Desktop's shape, paste yours), secrets shown as
// "••••" and kept when saved back unchanged; each server's status, error and tools; restart,
// disable or enable, remove (each a change to that config, saved at once).
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpConfigProblem, McpServerInfo } from '../../../shared/contract';
import { getApi } from '../../state/api';
import { toErrorInfo, type ErrorInfo } from '../../state/notices';
import { withoutServer, withServerDisabled } from '../../lib/mcp-config-edit';
import { ConfirmDialog } from '../ConfirmDialog';
import { Icon } from '../Icon';
import { ErrorText, ServerDetail } from '../ErrorText';
import { plainT } from '../../i18n/plain';

export function McpSection() {
  const { t } = useTranslation();
  const [servers, setServers] = useState<McpServerInfo[]>([]);
  const [problems, setProblems] = useState<McpConfigProblem[]>([]);
  const [text, setText] = useState('');
  const [path, setPath] = useState('');
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  const loadServers = useCallback(async () => {
    try {
      const list = await getApi().client.listMcpServers({});
      setServers(list.servers);
      setProblems(list.problems);
    } catch (err) {
      setError(toErrorInfo(err));
    }
  }, []);

  useEffect(() => {
    void (async () => {
      try {
        const config = await getApi().client.getMcpConfig({});
        setText(config.text);
        setPath(config.path);
      } catch (err) {
        setError(toErrorInfo(err));
      }
      await loadServers();
    })();
  }, [loadServers]);

  const save = async (next = text) => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const config = await getApi().client.saveMcpConfig({ text: next });
      setText(config.text);
      setDirty(false);
      setSaved(true);
      await loadServers();
      setProblems(config.problems);
    } catch (err) {
      setError(toErrorInfo(err));
    } finally {
      setBusy(false);
    }
  };

  const restart = async (name: string) => {
    setServers((list) => list.map((s) => (s.name === name ? { ...s, status: 'starting', error: null } : s)));
    try {
      await getApi().client.restartMcpServer({ name });
    } catch (err) {
      setError(toErrorInfo(err));
    }
    await loadServers();
  };

  // One server's change, made to the config as saved (the buttons wait while it has unsaved edits).
  const change = (edit: (config: string) => string) => {
    let next: string;
    try {
      next = edit(text);
    } catch (err) {
      setError(toErrorInfo(err));
      return;
    }
    void save(next);
  };

  return (
    <section className="settings-section" data-testid="mcp-section">
      <h2 tabIndex={-1}>{t('mcp.title')}</h2>
      <p className="muted">{t('mcp.intro', { path })}</p>
      <textarea
        className="input mcp-config"
        rows={10}
        spellCheck={false}
        value={text}
        placeholder={t('mcp.placeholder')}
        aria-label={plainT('mcp.configLabel')}
        onChange={(e) => {
          setText(e.target.value);
          setDirty(true);
          setSaved(false);
        }}
        data-testid="mcp-config"
      />
      <div className="templates-actions">
        <button type="button" className="btn" disabled={busy || !dirty} onClick={() => void save()} data-testid="mcp-save">
          {busy && <span className="spinner" />}
          {t('mcp.save')}
        </button>
        <button type="button" className="btn" onClick={() => void loadServers()} data-testid="mcp-refresh">
          {t('mcp.refresh')}
        </button>
        {saved && <span className="saved-hint">{t('mcp.saved')}</span>}
      </div>
      <p className="muted">{t('mcp.secretsNote')}</p>
      {error && (
        <div className="inline-error" role="alert" data-testid="mcp-error">
          <ErrorText error={error} />
        </div>
      )}
      {problems.length > 0 && (
        <ul className="warning-list" aria-label={plainT('mcp.problems')} data-testid="mcp-problems">
          {problems.map((p) => (
            <li key={`${p.server ?? ''}:${p.message}`} className="warning-item">
              <Icon name="alert" size={14} />
              <span>
                {p.server !== null && <strong>{p.server}: </strong>}
                <ServerDetail text={p.message} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <ul className="template-list" data-testid="mcp-servers">
        {servers.map((server) => (
          <McpServerItem
            key={server.name}
            server={server}
            locked={busy || dirty}
            onRestart={() => void restart(server.name)}
            onToggle={() => change((config) => withServerDisabled(config, server.name, !server.disabled))}
            onRemove={() => setRemoving(server.name)}
          />
        ))}
        {servers.length === 0 && <li className="muted">{t('mcp.none')}</li>}
      </ul>
      {removing !== null && (
        <ConfirmDialog
          title={t('mcp.removeTitle', { name: removing })}
          body={t('mcp.removeBody')}
          confirmLabel={t('mcp.remove')}
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const name = removing;
            setRemoving(null);
            change((config) => withoutServer(config, name));
          }}
        />
      )}
    </section>
  );
}

interface McpServerItemProps {
  server: McpServerInfo;
  /** Saving, or the config has unsaved edits: per-server changes wait. */
  locked: boolean;
  onRestart: () => void;
  onToggle: () => void;
  onRemove: () => void;
}

function McpServerItem({ server, locked, onRestart, onToggle, onRemove }: McpServerItemProps) {
  const { t } = useTranslation();
  return (
    <li className="template-item" data-testid="mcp-server" data-server={server.name}>
      <div className="template-head">
        <div className="template-name">
          <span className="cell-strong">{server.name}</span>
          <span className="badge">{t(`mcp.transport.${server.transport}`)}</span>
          <span className={`badge mcp-status mcp-status-${server.disabled ? 'disabled' : server.status}`} data-testid="mcp-status" data-status={server.disabled ? 'disabled' : server.status}>
            {server.disabled ? t('mcp.disabled') : t(`mcp.status.${server.status}`)}
          </span>
        </div>
        <div className="template-buttons">
          {!server.disabled && (
            <button type="button" className="btn btn-small" disabled={server.status === 'starting'} onClick={onRestart} data-testid="mcp-restart">
              {server.status === 'idle' ? t('mcp.start') : t('mcp.restart')}
            </button>
          )}
          <button type="button" className="btn btn-small" disabled={locked} title={locked ? plainT('mcp.saveFirst') : undefined} onClick={onToggle} data-testid="mcp-toggle">
            {server.disabled ? t('mcp.enable') : t('mcp.disable')}
          </button>
          <button type="button" className="btn btn-small btn-ghost-danger" disabled={locked} title={locked ? plainT('mcp.saveFirst') : undefined} onClick={onRemove} data-testid="mcp-remove">
            {t('mcp.remove')}
          </button>
        </div>
      </div>
      {server.error && (
        <div className="inline-error" role="alert">
          <ServerDetail text={server.error} />
        </div>
      )}
      <div className="muted template-facts">
        <span>{t('mcp.toolCount', { count: server.tools.length })}</span>
        {server.resources !== null && <span>{t('mcp.resourceCount', { count: server.resources })}</span>}
        {server.prompts !== null && <span>{t('mcp.promptCount', { count: server.prompts })}</span>}
      </div>
      {server.tools.length > 0 && (
        <details>
          <summary>{t('mcp.tools')}</summary>
          <ul className="warning-list">
            {server.tools.map((tool) => (
              <li key={tool.name} className="skill-item">
                <div className="skill-name cell-mono">{tool.model_name}</div>
                <div className="muted">{tool.description}</div>
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}
