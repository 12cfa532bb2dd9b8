import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigWarning, ProbeReport, Settings } from '../../shared/contract';
import { formatCost, formatTokens } from '../lib/format';
import { providerName } from '../lib/model-names';
import { getApi } from '../state/api';
import { useApp } from '../state/app-store';
import { useArtifacts } from '../state/artifacts-store';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { useUsage } from '../state/usage-store';
import { Icon } from './Icon';
import { TemplatesSection } from './TemplatesSection';
import { ToolPermissionsSection } from './ToolPermissionsSection';
import { ModelSetupSection } from './ModelSetupSection';
import { SearchSection } from './SearchSection';
import { EmbeddingSection } from './EmbeddingSection';
import { McpSection } from './McpSection';
import { ModelOptions } from './ModelOptions';
import { SecretInput } from './SecretInput';
import { ErrorText, ServerDetail } from './ErrorText';

type ProbeState = { status: 'running' } | { status: 'done'; report: ProbeReport } | { status: 'failed'; error: ErrorInfo };

const languages: Settings['language'][] = ['system', 'en', 'zh-CN'];

/** The page's sections in order: the navigation's entries, each found by its test id, named by its heading's string. */
const SECTIONS = [
  { id: 'general-section', label: 'settings.general' },
  { id: 'config-warnings-section', label: 'settings.warnings' },
  { id: 'model-setup-section', label: 'setup.sectionTitle' },
  { id: 'models-section', label: 'settings.models' },
  { id: 'skills-section', label: 'settings.skills' },
  { id: 'templates-section', label: 'templates.title' },
  { id: 'tool-permissions-section', label: 'permissions.title' },
  { id: 'search-section', label: 'search.title' },
  { id: 'embedding-section', label: 'embedding.title' },
  { id: 'mcp-section', label: 'mcp.title' },
] as const;
type SectionId = (typeof SECTIONS)[number]['id'];

export function SettingsPage() {
  const { t } = useTranslation();
  const app = useApp();
  const { loadModels, loadSkills, loadSettings } = app;
  const usage = useUsage((s) => s.total);
  const loadUsage = useUsage((s) => s.load);
  const [probes, setProbes] = useState<Record<string, ProbeState>>({});
  const capabilities = useArtifacts((s) => s.capabilities);
  const loadCapabilities = useArtifacts((s) => s.loadCapabilities);

  useEffect(() => {
    void loadSettings();
    void loadModels();
    void loadSkills();
    void loadUsage();
    void loadCapabilities();
  }, [loadSettings, loadModels, loadSkills, loadUsage, loadCapabilities]);

  const probe = async (profileId: string) => {
    setProbes((p) => ({ ...p, [profileId]: { status: 'running' } }));
    try {
      const report = await getApi().client.probeModel({ profile_id: profileId });
      setProbes((p) => ({ ...p, [profileId]: { status: 'done', report } }));
    } catch (err) {
      setProbes((p) => ({ ...p, [profileId]: { status: 'failed', error: toErrorInfo(err) } }));
    }
  };

  const warnings = [...app.modelWarnings, ...app.skillWarnings];
  const sections = SECTIONS.filter((s) => s.id !== 'config-warnings-section' || warnings.length > 0);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState<SectionId>('general-section');
  // A section chosen in the navigation stays marked while the page scrolls to it (one near the end
  // cannot reach the top), until the person scrolls themselves.
  const chosen = useRef(false);

  const sectionElement = (id: SectionId) => bodyRef.current?.querySelector<HTMLElement>(`[data-testid="${id}"]`) ?? null;
  const goTo = (id: SectionId) => {
    const el = sectionElement(id);
    if (!el) return;
    el.scrollIntoView({ block: 'start' });
    // Keyboard users land in the section they chose, not back at the navigation.
    el.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
    chosen.current = true;
    setCurrent(id);
  };
  const release = () => {
    chosen.current = false;
  };
  // The section at the top of the view is the one the navigation marks.
  const onScroll = () => {
    const body = bodyRef.current;
    if (!body || chosen.current) return;
    const top = body.getBoundingClientRect().top + 24;
    let at: SectionId = sections[0].id;
    for (const s of sections) {
      const el = sectionElement(s.id);
      if (el && el.getBoundingClientRect().top <= top) at = s.id;
    }
    if (body.scrollTop + body.clientHeight >= body.scrollHeight - 2) at = sections[sections.length - 1].id;
    setCurrent(at);
  };

  return (
    <main className="settings" data-testid="settings-page">
      <header className="settings-header">
        <button type="button" className="icon-btn" onClick={() => app.setView('chat')} aria-label={t('common.back')} data-testid="settings-back">
          <Icon name="back" />
        </button>
        <h1>{t('settings.title')}</h1>
      </header>
      <div className="settings-layout">
      <nav className="settings-nav" aria-label={t('settings.sections')} data-testid="settings-nav">
        <ul>
          {sections.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                className="settings-nav-item"
                aria-current={current === s.id ? 'true' : undefined}
                onClick={() => goTo(s.id)}
                data-testid="settings-nav-item"
                data-section={s.id}
              >
                {t(s.label)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-body" ref={bodyRef} onScroll={onScroll} onWheel={release} onPointerDown={release} onKeyDown={release} onTouchStart={release}>
        <section className="settings-section" data-testid="general-section">
          <h2 tabIndex={-1}>{t('settings.general')}</h2>
          <div className="form-row">
            <span className="form-label">{t('settings.dataDir')}</span>
            <code className="form-value" data-testid="settings-data-dir" data-dynamic>
              {app.settings?.data_dir ?? ''}
            </code>
          </div>
          <label className="form-row">
            <span className="form-label">{t('settings.language')}</span>
            <select
              className="select"
              value={app.settings?.language ?? 'system'}
              onChange={(e) => void app.setLanguage(e.target.value as Settings['language'])}
              data-testid="language-select"
            >
              {languages.map((lang) => (
                <option key={lang} value={lang}>
                  {t(`settings.languages.${lang}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="form-row">
            <span className="form-label">{t('settings.defaultModel')}</span>
            <select
              className="select"
              value={app.settings?.default_model ?? ''}
              onChange={(e) => void app.setDefaultModel(e.target.value === '' ? null : e.target.value)}
              data-testid="default-model-select"
            >
              <option value="">{t('settings.noDefaultModel')}</option>
              <ModelOptions profiles={app.profiles.filter((p) => p.role === 'chat')} />
            </select>
          </label>
          {capabilities && (
            <div className="form-row">
              <span className="form-label">{t('settings.commands')}</span>
              <span className={capabilities.sandbox ? 'form-value' : 'form-value text-warning'} data-testid="settings-sandbox" data-dynamic>
                {capabilities.sandbox ? t('settings.sandboxed') : t('settings.notSandboxed')}
              </span>
            </div>
          )}
          {capabilities && (
            <div className="form-row">
              <span className="form-label">{t('settings.python')}</span>
              <span className={capabilities.python.available ? 'form-value' : 'form-value text-warning'} data-testid="settings-python" data-dynamic>
                {!capabilities.python.available
                  ? t('settings.pythonMissing')
                  : capabilities.python.version === null
                    ? t('settings.pythonContainer')
                    : t('settings.pythonFound', { version: capabilities.python.version, packages: capabilities.python.packages.join(', ') || t('settings.pythonNoPackages') })}
              </span>
            </div>
          )}
          <div className="form-row">
            <span className="form-label">{t('usage.total')}</span>
            <span className="form-value" data-testid="settings-usage" data-dynamic>
              {usage
                ? t('usage.totalValue', {
                    tokens: formatTokens(usage.prompt_tokens + usage.completion_tokens),
                    prompt: formatTokens(usage.prompt_tokens),
                    completion: formatTokens(usage.completion_tokens),
                    cost: formatCost(usage.cost),
                  })
                : t('common.loading')}
            </span>
          </div>
        </section>

        {warnings.length > 0 && <WarningsSection warnings={warnings} />}

        <ModelSetupSection />
        <section className="settings-section" data-testid="models-section">
          <h2 tabIndex={-1}>{t('settings.models')}</h2>
          <div className="table-wrap">
            <table className="table" data-testid="models-table">
              <thead>
                <tr>
                  <th>{t('models.id')}</th>
                  <th>{t('models.model')}</th>
                  <th>{t('models.apiBase')}</th>
                  <th>{t('models.keyEnv')}</th>
                  <th>{t('models.hasKey')}</th>
                  <th>{t('models.context')}</th>
                  <th>{t('models.price')}</th>
                  <th>{t('probe.heading')}</th>
                </tr>
              </thead>
              <tbody>
                {app.profiles.map((p) => (
                  <Fragment key={p.id}>
                    <tr>
                      <td>
                        <div className="cell-strong" title={p.id}>
                          {p.name}
                        </div>
                        <div className="muted">
                          {providerName(p.provider, t)} · {t(`models.role.${p.role}`)}
                        </div>
                      </td>
                      <td>{p.model}</td>
                      <td className="cell-mono">{p.api_base}</td>
                      <td className="cell-mono">{p.api_key_env ?? t('models.noEnv')}</td>
                      <td>
                        <span className={p.has_key ? 'key-yes' : 'key-no'} aria-label={p.has_key ? t('models.keyPresent') : t('models.keyMissing')}>
                          {p.has_key ? '✓' : '✗'}
                        </span>
                      </td>
                      <td title={t('models.contextHint', { reliable: p.reliable_context, output: p.max_output })}>
                        {t('models.contextValue', { max: formatTokens(p.max_context), reliable: formatTokens(p.reliable_context) })}
                      </td>
                      <td>{t('models.priceValue', { input: p.price.input, output: p.price.output })}</td>
                      <td>
                        <button
                          type="button"
                          className="btn btn-small"
                          disabled={probes[p.id]?.status === 'running'}
                          onClick={() => void probe(p.id)}
                          title={t('probe.hint')}
                          data-testid="probe-button"
                          data-profile={p.id}
                        >
                          {probes[p.id]?.status === 'running' && <span className="spinner" />}
                          {probes[p.id]?.status === 'running' ? t('probe.running') : t('probe.run')}
                        </button>
                      </td>
                    </tr>
                    {probes[p.id] && probes[p.id].status !== 'running' && (
                      <tr className="probe-row">
                        <td colSpan={8}>
                          <ProbeResult state={probes[p.id]} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
                {app.profiles.length === 0 && (
                  <tr>
                    <td colSpan={8} className="muted">
                      {t('models.none')}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <ApiKeyForm />
        </section>

        <section className="settings-section" data-testid="skills-section">
          <h2 tabIndex={-1}>{t('settings.skills')}</h2>
          <ul className="skill-list" data-testid="skills-list">
            {app.skills.map((skill) => (
              <li key={skill.name} className="skill-item">
                <div className="skill-name">
                  {skill.name}
                  <span className="badge">{t(`skills.source.${skill.source}`)}</span>
                </div>
                <div className="muted">{skill.description}</div>
              </li>
            ))}
            {app.skills.length === 0 && <li className="muted">{t('skills.none')}</li>}
          </ul>
        </section>

        <TemplatesSection />
        <ToolPermissionsSection />
        <SearchSection />
        <EmbeddingSection />
        <McpSection />
      </div>
      </div>
    </main>
  );
}

function ProbeResult({ state }: { state: ProbeState }) {
  const { t } = useTranslation();
  if (state.status === 'running') return null;
  if (state.status === 'failed') {
    return (
      <div className="inline-error" role="alert" data-testid="probe-error">
        <ErrorText error={state.error} />
      </div>
    );
  }
  const { report } = state;
  const mismatches = report.rows.filter((r) => !r.ok).length;
  return (
    <div className="probe-result" data-testid="probe-result" data-profile={report.profile}>
      <div className={mismatches === 0 && !report.error ? 'probe-summary ok' : 'probe-summary bad'}>
        {mismatches === 0 && !report.error ? t('probe.allOk') : t('probe.mismatches', { count: mismatches })}
      </div>
      {report.error && (
        <div className="inline-error" data-testid="probe-error">
          {report.error_code ? <ErrorText error={{ code: report.error_code, name: report.error_name, message: report.error }} /> : <ServerDetail text={report.error} />}
        </div>
      )}
      {report.rows.length > 0 && (
        <table className="table probe-table">
          <thead>
            <tr>
              <th>{t('probe.check')}</th>
              <th>{t('probe.declared')}</th>
              <th>{t('probe.observed')}</th>
              <th>{t('probe.result')}</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.map((row, i) => (
              <tr key={i} data-testid="probe-check" data-ok={row.ok}>
                <td>{row.check}</td>
                <td className="cell-mono">{row.declared}</td>
                <td className="cell-mono">{row.observed}</td>
                <td>
                  <span className={row.ok ? 'key-yes' : 'key-no'}>{row.ok ? t('probe.ok') : t('probe.mismatch')}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function WarningsSection({ warnings }: { warnings: ConfigWarning[] }) {
  const { t } = useTranslation();
  return (
    <section className="settings-section" data-testid="config-warnings-section">
      <h2 tabIndex={-1}>{t('settings.warnings')}</h2>
      <ul className="warning-list" data-testid="config-warnings">
        {warnings.map((w, i) => (
          <li key={i} className="warning-item">
            <Icon name="alert" size={14} />
            <code>{w.source}</code>
            <ServerDetail text={w.message} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ApiKeyForm() {
  const { t } = useTranslation();
  const profiles = useApp((s) => s.profiles);
  const saveApiKey = useApp((s) => s.saveApiKey);
  const envs = useMemo(() => [...new Set(profiles.map((p) => p.api_key_env).filter((e): e is string => !!e))].sort(), [profiles]);
  const [env, setEnv] = useState('');
  const [key, setKey] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const selected = env || envs[0] || '';

  const submit = async () => {
    if (!selected || !key.trim()) return;
    const ok = await saveApiKey(selected, key.trim());
    // The key is never shown again, not even masked: clear the field once it is stored.
    if (ok) {
      setKey('');
      setSaved(selected);
    }
  };

  if (envs.length === 0) return null;
  return (
    <form
      className="api-key-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="api-key-form"
    >
      <div className="form-label">{t('settings.apiKey')}</div>
      <select className="select" value={selected} onChange={(e) => setEnv(e.target.value)} aria-label={t('settings.apiKeyEnv')}>
        {envs.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <SecretInput
        placeholder={t('settings.apiKeyPlaceholder')}
        aria-label={t('settings.apiKey')}
        value={key}
        onValue={(v) => {
          setKey(v);
          setSaved(null);
        }}
        data-testid="api-key-input"
      />
      <button type="submit" className="btn btn-primary" disabled={!key.trim()} data-testid="api-key-save">
        {t('common.save')}
      </button>
      {saved && <span className="saved-hint">{t('settings.apiKeySaved', { env: saved })}</span>}
    </form>
  );
}
