import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigWarning, Settings } from '../../shared/contract';
import { formatTokens } from '../lib/format';
import { useApp } from '../state/app-store';
import { Icon } from './Icon';

const languages: Settings['language'][] = ['system', 'en', 'zh-CN'];

export function SettingsPage() {
  const { t } = useTranslation();
  const app = useApp();
  const { loadModels, loadSkills, loadSettings } = app;

  useEffect(() => {
    void loadSettings();
    void loadModels();
    void loadSkills();
  }, [loadSettings, loadModels, loadSkills]);

  const warnings = [...app.modelWarnings, ...app.skillWarnings];

  return (
    <section className="settings" data-testid="settings-page">
      <header className="settings-header">
        <button type="button" className="icon-btn" onClick={() => app.setView('chat')} aria-label={t('common.back')} data-testid="settings-back">
          <Icon name="back" />
        </button>
        <h1>{t('settings.title')}</h1>
      </header>
      <div className="settings-body">
        <section className="settings-section">
          <h2>{t('settings.general')}</h2>
          <div className="form-row">
            <span className="form-label">{t('settings.dataDir')}</span>
            <code className="form-value" data-testid="settings-data-dir">
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
              {app.profiles
                .filter((p) => p.role === 'chat')
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.has_key ? t('models.option', { name: p.name, id: p.id }) : t('models.optionNoKey', { name: p.name, id: p.id })}
                  </option>
                ))}
            </select>
          </label>
        </section>

        {warnings.length > 0 && <WarningsSection warnings={warnings} />}

        <section className="settings-section">
          <h2>{t('settings.models')}</h2>
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
                </tr>
              </thead>
              <tbody>
                {app.profiles.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <div className="cell-strong">{p.id}</div>
                      <div className="muted">{t(`models.role.${p.role}`)}</div>
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
                  </tr>
                ))}
                {app.profiles.length === 0 && (
                  <tr>
                    <td colSpan={7} className="muted">
                      {t('models.none')}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <ApiKeyForm />
        </section>

        <section className="settings-section">
          <h2>{t('settings.skills')}</h2>
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
      </div>
    </section>
  );
}

function WarningsSection({ warnings }: { warnings: ConfigWarning[] }) {
  const { t } = useTranslation();
  return (
    <section className="settings-section">
      <h2>{t('settings.warnings')}</h2>
      <ul className="warning-list" data-testid="config-warnings">
        {warnings.map((w, i) => (
          <li key={i} className="warning-item">
            <Icon name="alert" size={14} />
            <code>{w.source}</code>
            <span>{w.message}</span>
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
      <input
        className="input"
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('settings.apiKeyPlaceholder')}
        aria-label={t('settings.apiKey')}
        value={key}
        onChange={(e) => {
          setKey(e.target.value);
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
