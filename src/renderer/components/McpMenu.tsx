// The chat header's MCP menu: which MCP servers this task's runs may use (their tools then appear to
// the model, each call asked for), and per enabled server its resources (attached as sources) and
// prompts (rendered with their arguments into the composer).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpPromptInfo, McpResourceInfo, McpServerInfo, Task } from '../../shared/contract';
import { getApi } from '../state/api';
import { useComposerInsert } from '../state/composer-insert';
import { useFiles } from '../state/files-store';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { useSources } from '../state/sources-store';
import { useTasks } from '../state/tasks-store';
import { ErrorText } from './ErrorText';
import { useMenu } from './menu/use-menu';

export function McpMenu({ task }: { task: Task }) {
  const { t } = useTranslation();
  const [servers, setServers] = useState<McpServerInfo[] | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const menu = useMenu();
  const { open } = menu;
  const update = useTasks((s) => s.update);
  const enabled = task.mcp_servers ?? [];

  useEffect(() => {
    if (!open) return;
    let live = true;
    getApi()
      .client.listMcpServers({})
      .then((list) => live && setServers(list.servers))
      .catch((err: unknown) => live && setError(toErrorInfo(err)));
    return () => {
      live = false;
    };
  }, [open]);

  const toggle = (name: string, on: boolean) => {
    const next = on ? [...enabled.filter((n) => n !== name), name] : enabled.filter((n) => n !== name);
    void update(task.id, { mcp_servers: next.length > 0 ? next : null });
  };

  return (
    <div className="control mcp-menu" {...menu.rootProps}>
      <button {...menu.buttonProps} type="button" className="btn btn-small" aria-haspopup="menu" data-testid="mcp-menu">
        {enabled.length > 0 ? t('mcp.menuCount', { count: enabled.length }) : t('mcp.menu')}
      </button>
      {open && (
        <div className="menu mcp-menu-popover" role="menu" {...menu.menuProps} data-testid="mcp-menu-popover">
          <div className="menu-heading">{t('mcp.menuHeading')}</div>
          {error && (
            <div className="inline-error">
              <ErrorText error={error} />
            </div>
          )}
          {servers === null && !error && <div className="muted menu-item">{t('mcp.loading')}</div>}
          {servers?.length === 0 && <div className="muted menu-item">{t('mcp.noneConfigured')}</div>}
          {servers?.map((server) => {
            const on = enabled.includes(server.name);
            return (
              <div key={server.name} className="mcp-menu-server">
                <label className="menu-item" title={server.error ?? undefined}>
                  <input type="checkbox" checked={on} disabled={server.disabled && !on} onChange={(e) => toggle(server.name, e.target.checked)} data-testid="mcp-toggle" data-server={server.name} />
                  <span className="menu-item-title">{server.name}</span>
                  <span className="menu-item-hint">{server.disabled ? t('mcp.disabled') : t(`mcp.status.${server.status}`)}</span>
                </label>
                {on && !server.disabled && <ServerExtras task={task} server={server.name} onInserted={menu.close} />}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

function ServerExtras({ task, server, onInserted }: { task: Task; server: string; onInserted: () => void }) {
  const { t } = useTranslation();
  const [panel, setPanel] = useState<'resources' | 'prompts' | null>(null);
  return (
    <div className="mcp-menu-extras">
      <button type="button" className="btn btn-small" aria-expanded={panel === 'resources'} onClick={() => setPanel(panel === 'resources' ? null : 'resources')} data-testid="mcp-resources">
        {t('mcp.resources')}
      </button>
      <button type="button" className="btn btn-small" aria-expanded={panel === 'prompts'} onClick={() => setPanel(panel === 'prompts' ? null : 'prompts')} data-testid="mcp-prompts">
        {t('mcp.prompts')}
      </button>
      {panel === 'resources' && <Resources task={task} server={server} />}
      {panel === 'prompts' && <Prompts server={server} onInserted={onInserted} />}
    </div>
  );
}

function Resources({ task, server }: { task: Task; server: string }) {
  const { t } = useTranslation();
  const [resources, setResources] = useState<McpResourceInfo[] | null>(null);
  const [attached, setAttached] = useState<string[]>([]);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const loadFiles = useFiles((s) => s.load);
  const loadSources = useSources((s) => s.load);
  useEffect(() => {
    let live = true;
    getApi()
      .client.listMcpResources({ name: server })
      .then((r) => live && setResources(r.resources))
      .catch((err: unknown) => live && setError(toErrorInfo(err)));
    return () => {
      live = false;
    };
  }, [server]);
  const attach = async (uri: string) => {
    setError(null);
    try {
      await getApi().client.attachMcpResource({ task_id: task.id, server, uri });
      setAttached((list) => [...list, uri]);
      await Promise.all([loadFiles(task.id), loadSources(task.id)]);
    } catch (err) {
      setError(toErrorInfo(err));
    }
  };
  return (
    <ul className="mcp-menu-list" data-testid="mcp-resource-list">
      {error && (
        <li className="inline-error">
          <ErrorText error={error} />
        </li>
      )}
      {resources === null && !error && <li className="muted">{t('mcp.loading')}</li>}
      {resources?.length === 0 && <li className="muted">{t('mcp.noResources')}</li>}
      {resources?.map((r) => (
        <li key={r.uri} title={r.description ?? r.uri}>
          <button type="button" className="menu-item" disabled={attached.includes(r.uri)} onClick={() => void attach(r.uri)} data-testid="mcp-attach">
            <span className="menu-item-title">{r.name}</span>
            <span className="menu-item-hint">{attached.includes(r.uri) ? t('mcp.attached') : t('mcp.attach')}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function Prompts({ server, onInserted }: { server: string; onInserted: () => void }) {
  const { t } = useTranslation();
  const [prompts, setPrompts] = useState<McpPromptInfo[] | null>(null);
  const [chosen, setChosen] = useState<McpPromptInfo | null>(null);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [error, setError] = useState<ErrorInfo | null>(null);
  const insert = useComposerInsert((s) => s.insert);
  useEffect(() => {
    let live = true;
    getApi()
      .client.listMcpPrompts({ name: server })
      .then((p) => live && setPrompts(p.prompts))
      .catch((err: unknown) => live && setError(toErrorInfo(err)));
    return () => {
      live = false;
    };
  }, [server]);
  const render = async (prompt: McpPromptInfo) => {
    setError(null);
    try {
      const filled = Object.fromEntries(Object.entries(args).filter(([, v]) => v.trim() !== ''));
      const { text } = await getApi().client.getMcpPrompt({ name: server, prompt: prompt.name, arguments: filled });
      insert(text);
      onInserted();
    } catch (err) {
      setError(toErrorInfo(err));
    }
  };
  if (chosen) {
    const missing = chosen.arguments.some((a) => a.required && !(args[a.name] ?? '').trim());
    return (
      <form
        className="mcp-menu-list"
        onSubmit={(e) => {
          e.preventDefault();
          void render(chosen);
        }}
        data-testid="mcp-prompt-form"
      >
        <div className="menu-item-title">{chosen.name}</div>
        {chosen.arguments.map((a) => (
          <label key={a.name} className="control">
            <span className="control-label">
              {a.name}
              {a.required ? ' *' : ''}
            </span>
            <input className="input" value={args[a.name] ?? ''} title={a.description ?? undefined} onChange={(e) => setArgs({ ...args, [a.name]: e.target.value })} data-testid="mcp-prompt-arg" />
          </label>
        ))}
        {error && (
          <div className="inline-error">
            <ErrorText error={error} />
          </div>
        )}
        <div className="templates-actions">
          <button type="submit" className="btn btn-small btn-primary" disabled={missing} data-testid="mcp-prompt-insert">
            {t('mcp.insert')}
          </button>
          <button type="button" className="btn btn-small" onClick={() => setChosen(null)}>
            {t('mcp.back')}
          </button>
        </div>
      </form>
    );
  }
  return (
    <ul className="mcp-menu-list" data-testid="mcp-prompt-list">
      {error && (
        <li className="inline-error">
          <ErrorText error={error} />
        </li>
      )}
      {prompts === null && !error && <li className="muted">{t('mcp.loading')}</li>}
      {prompts?.length === 0 && <li className="muted">{t('mcp.noPrompts')}</li>}
      {prompts?.map((p) => (
        <li key={p.name}>
          <button
            type="button"
            className="menu-item menu-item-rich"
            onClick={() => {
              setArgs({});
              if (p.arguments.length === 0) void render(p);
              else setChosen(p);
            }}
            data-testid="mcp-prompt"
          >
            <span>
              <span className="menu-item-title">{p.name}</span>
              {p.description && <span className="menu-item-hint">{p.description}</span>}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
