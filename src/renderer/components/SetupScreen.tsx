// The short model setup: choose a provider, give it a key (or point to a local / any OpenAI-compatible
// server), test it with the probe, done. Shown at a first run when no model is usable, and from Settings.
import { useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ModelProfileInfo, ProbeReport } from '../../shared/contract';
import { probeFactText } from '../../shared/probe-text';
import type { ProviderModel, SetupProvider } from '../../shared/contract/setup';
import { getApi } from '../state/api';
import { useApp } from '../state/app-store';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { useSetup } from '../state/setup-store';
import { providerKeyPage } from '../../shared/providers';
import { modelLabel, modelLabels, providerName } from '../../shared/model-names';
import { providerOk, providerState } from '../lib/provider-state';
import { Icon } from './Icon';
import { SecretInput } from './SecretInput';
import { errorOutcome, TestOutcome, type Outcome } from './TestOutcome';
import { plainT } from '../i18n/plain';

type Choice = { kind: 'provider'; provider: SetupProvider } | { kind: 'custom' };
export type TestState = { status: 'running' } | { status: 'done'; report: ProbeReport } | { status: 'failed'; error: ErrorInfo };

export function SetupScreen() {
  const { t } = useTranslation();
  const status = useSetup((s) => s.status);
  const load = useSetup((s) => s.load);
  const [choice, setChoice] = useState<Choice | null>(null);
  // The profiles the person can test now (the chosen provider's, or those just added).
  const [testable, setTestable] = useState<{ id: string; name: string }[]>([]);
  const [passed, setPassed] = useState<string | null>(null);

  const ensure = useSetup((s) => s.ensure);
  useEffect(() => {
    void ensure();
  }, [ensure]);

  const choose = (next: Choice) => {
    setChoice(next);
    setPassed(null);
    setTestable(next.kind === 'provider' ? next.provider.profiles.filter((p) => p.role === 'chat') : []);
  };

  const done = async () => {
    const app = useApp.getState();
    // The model that just passed becomes the default unless the person already chose one.
    if (passed && !app.settings?.default_model) await app.setDefaultModel(passed);
    await Promise.all([app.loadModels(), load()]);
    app.setView('chat');
  };

  return (
    <section className="settings setup" data-testid="setup-screen" data-step={choice ? 2 : 1}>
      <header className="settings-header">
        {choice && (
          <button type="button" className="icon-btn" onClick={() => setChoice(null)} aria-label={plainT('common.back')} data-testid="setup-back">
            <Icon name="back" />
          </button>
        )}
        <h1>{t('setup.title')}</h1>
      </header>
      <div className="settings-body">
        {!choice ? (
          <section className="settings-section">
            <p className="muted">{status && !status.ready ? t('setup.introNothing') : t('setup.intro')}</p>
            <ProviderList providers={status?.providers ?? []} onChoose={choose} />
          </section>
        ) : (
          <section className="settings-section">
            {choice.kind === 'provider' && choice.provider.api_key_env !== null && <KeyStep provider={choice.provider} onSaved={() => void load()} />}
            {choice.kind === 'provider' && choice.provider.api_key_env === null && <LocalStep provider={choice.provider} onRecheck={() => void load()} />}
            {choice.kind === 'custom' && (
              <CustomStep
                onAdded={(profiles) => {
                  setTestable(profiles);
                  void load();
                }}
              />
            )}
            {testable.length > 0 && <TestStep profiles={testable} onPassed={setPassed} />}
          </section>
        )}
        <div className="setup-footer">
          <span className="muted">{t('setup.later')}</span>
          <button type="button" className="btn btn-primary" onClick={() => void done()} data-testid="setup-done">
            {t('setup.done')}
          </button>
        </div>
      </div>
    </section>
  );
}

export function ProviderList({ providers, onChoose }: { providers: SetupProvider[]; onChoose: (choice: Choice) => void }) {
  const { t } = useTranslation();
  const withChat = providers.filter((p) => p.profiles.some((m) => m.role === 'chat'));
  return (
    <ul className="setup-providers">
      {withChat.map((p) => (
        <li key={`${p.provider}|${p.api_base}`} className="setup-provider-item">
          <button type="button" className="setup-provider" onClick={() => onChoose({ kind: 'provider', provider: p })} data-testid="setup-provider" data-provider={p.provider}>
            <span className="cell-strong">{providerName(p.provider, t)}</span>
            <span className={providerOk(p) ? 'key-yes' : 'muted'}>{providerState(p, t)}</span>
          </button>
          {providerKeyPage(p.provider) && !providerOk(p) && (
            <a className="setup-get-key" href={providerKeyPage(p.provider)!} target="_blank" rel="noreferrer" data-testid="setup-get-key">
              {p.api_key_env === null ? t('providers.install') : t('providers.getKey')}
            </a>
          )}
        </li>
      ))}
      <li>
        <button type="button" className="setup-provider" onClick={() => onChoose({ kind: 'custom' })} data-testid="setup-custom">
          <span className="cell-strong">{t('setup.customTitle')}</span>
          <span className="muted">{t('setup.customHint')}</span>
        </button>
      </li>
    </ul>
  );
}

function KeyStep({ provider, onSaved }: { provider: SetupProvider; onSaved: () => void }) {
  const { t } = useTranslation();
  const saveApiKey = useApp((s) => s.saveApiKey);
  const env = provider.api_key_env ?? '';
  const [key, setKey] = useState('');
  const [saved, setSaved] = useState(false);
  const submit = async () => {
    // saveApiKey reports a failure itself; the key is never shown again once stored.
    if (await saveApiKey(env, key.trim())) {
      setKey('');
      setSaved(true);
      onSaved();
    }
  };
  return (
    <form
      className="setup-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2>{t('setup.keyTitle', { provider: providerName(provider.provider, t) })}</h2>
      <p className="muted">{provider.has_key ? t('setup.keyReplace', { env }) : t('setup.keyHint', { env })}</p>
      <div className="setup-row">
        <SecretInput
          placeholder={t('settings.apiKeyPlaceholder')}
          aria-label={plainT('setup.keyTitle', { provider: providerName(provider.provider, t) })}
          value={key}
          onValue={(v) => {
            setKey(v);
            setSaved(false);
          }}
          data-testid="setup-key-input"
        />
        <button type="submit" className="btn btn-primary" disabled={!key.trim()} data-testid="setup-key-save">
          {t('common.save')}
        </button>
      </div>
      {saved && <span className="saved-hint">{t('settings.apiKeySaved', { env })}</span>}
    </form>
  );
}

function LocalStep({ provider, onRecheck }: { provider: SetupProvider; onRecheck: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="setup-form">
      <h2>{t('setup.localTitle', { provider: providerName(provider.provider, t) })}</h2>
      <p className="muted">{t('setup.localHint', { base: provider.api_base })}</p>
      <div className="setup-row">
        <span className={provider.reachable ? 'key-yes' : 'key-no'} data-testid="setup-local-state">
          {provider.reachable ? t('setup.localUp') : t('setup.localDown')}
        </span>
        <button type="button" className="btn btn-small" onClick={onRecheck}>
          {t('setup.recheck')}
        </button>
      </div>
    </div>
  );
}

function CustomStep({ onAdded }: { onAdded: (profiles: { id: string; name: string }[]) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [base, setBase] = useState('');
  const [key, setKey] = useState('');
  const [models, setModels] = useState<ProviderModel[] | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const connection = { api_base: base.trim(), ...(key.trim() ? { api_key: key.trim() } : {}) };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(toErrorInfo(err));
    } finally {
      setBusy(false);
    }
  };

  const loadModels = () =>
    run(async () => {
      setModels(null);
      setAdded(null);
      const list = (await getApi().client.listProviderModels(connection)).models;
      setModels(list);
      setPicked(new Set(list.slice(0, 1).map((m) => m.id)));
    });

  const add = () =>
    run(async () => {
      const result = await getApi().client.addCustomProvider({ ...connection, name: name.trim() || hostOf(base), models: [...picked] });
      setAdded(result.provider);
      onAdded(result.profile_ids.map((id, i) => ({ id, name: [...picked][i] ?? id })));
      await useApp.getState().loadModels();
    });

  return (
    <div className="setup-form">
      <h2>{t('setup.customTitle')}</h2>
      <p className="muted">{t('setup.customIntro')}</p>
      <label className="form-row">
        <span className="form-label">{t('setup.baseUrl')}</span>
        <input className="input" value={base} placeholder={t('setup.baseUrlPlaceholder')} spellCheck={false} onChange={(e) => setBase(e.target.value)} data-testid="setup-custom-base" />
      </label>
      <label className="form-row">
        <span className="form-label">{t('setup.customKey')}</span>
        <SecretInput value={key} placeholder={t('setup.customKeyPlaceholder')} onValue={setKey} data-testid="setup-custom-key" />
      </label>
      <label className="form-row">
        <span className="form-label">{t('setup.customName')}</span>
        <input className="input" value={name} placeholder={hostOf(base) || t('setup.customNamePlaceholder')} onChange={(e) => setName(e.target.value)} data-testid="setup-custom-name" />
      </label>
      <div className="setup-row">
        <button type="button" className="btn" disabled={busy || !base.trim()} onClick={() => void loadModels()} data-testid="setup-load-models">
          {busy && !models && <span className="spinner" />}
          {t('setup.loadModels')}
        </button>
      </div>
      <TestOutcome outcome={errorOutcome(error)} testId="setup-custom-error" />
      {models && models.length === 0 && <p className="muted">{t('setup.noModels')}</p>}
      {models && models.length > 0 && (
        <>
          <fieldset className="setup-models">
            <legend className="setup-models-title">{t('setup.pickModels')}</legend>
            {models.map((m) => (
              <label key={m.id} className="setup-model">
                <input
                  type="checkbox"
                  checked={picked.has(m.id)}
                  onChange={(e) => {
                    const next = new Set(picked);
                    if (e.target.checked) next.add(m.id);
                    else next.delete(m.id);
                    setPicked(next);
                  }}
                  data-testid="setup-model-option"
                  data-model={m.id}
                />
                <span className="cell-mono">{m.id}</span>
              </label>
            ))}
          </fieldset>
          <div className="setup-row">
            <button type="button" className="btn btn-primary" disabled={busy || picked.size === 0} onClick={() => void add()} data-testid="setup-add-provider">
              {t('setup.addProvider', { count: picked.size })}
            </button>
            {added && <span className="saved-hint">{t('setup.added', { provider: added })}</span>}
          </div>
        </>
      )}
    </div>
  );
}

function TestStep({ profiles, onPassed }: { profiles: { id: string; name: string }[]; onPassed: (id: string) => void }) {
  const { t } = useTranslation();
  // Named as everywhere else once the profiles are loaded (a provider added just now: soon after).
  const loaded = useApp((s) => s.profiles);
  const labels = useMemo(() => modelLabels(loaded, t), [loaded, t]);
  const [selected, setSelected] = useState('');
  const [test, setTest] = useState<TestState | null>(null);
  const profileId = profiles.some((p) => p.id === selected) ? selected : (profiles[0]?.id ?? '');

  const run = async () => {
    setTest({ status: 'running' });
    try {
      const report = await getApi().client.probeModel({ profile_id: profileId });
      setTest({ status: 'done', report });
      if (passedChat(report)) onPassed(report.profile);
    } catch (err) {
      setTest({ status: 'failed', error: toErrorInfo(err) });
    }
  };

  return (
    <div className="setup-form">
      <h2>{t('setup.testTitle')}</h2>
      <div className="setup-row">
        {profiles.length > 1 && (
          <select className="select" value={profileId} onChange={(e) => setSelected(e.target.value)} aria-label={plainT('setup.testProfile')} data-testid="setup-test-profile">
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {t('models.option', { name: labels.get(p.id) ?? p.name })}
              </option>
            ))}
          </select>
        )}
        <button type="button" className="btn" disabled={test?.status === 'running' || !profileId} onClick={() => void run()} data-testid="setup-test">
          {test?.status === 'running' && <span className="spinner" />}
          {test?.status === 'running' ? t('probe.running') : t('setup.test')}
        </button>
      </div>
      {test && test.status !== 'running' && <TestResult state={test} profiles={loaded} />}
    </div>
  );
}

export function TestResult({ state, profiles }: { state: Exclude<TestState, { status: 'running' }>; profiles: readonly ModelProfileInfo[] }) {
  const { t } = useTranslation();
  return <TestOutcome outcome={testOutcome(state, profiles, t)} testId="setup-test-result" />;
}

function testOutcome(state: Exclude<TestState, { status: 'running' }>, profiles: readonly ModelProfileInfo[], t: TFunction): Outcome {
  if (state.status === 'failed') return { kind: 'error', error: state.error };
  const { report } = state;
  if (!passedChat(report)) {
    return report.error_code
      ? { kind: 'error', error: { code: report.error_code, name: report.error_name, message: report.error ?? '' } }
      : { kind: 'failed', headline: t('setup.testFailed'), detail: report.error ?? (report.rows[0] ? probeFactText(report.rows[0].observed, t) : null) };
  }
  const differ = report.rows.filter((r) => !r.ok).length;
  const profile = modelLabel(report.profile, profiles, t);
  return {
    kind: 'passed',
    view: (
      <div className="probe-summary ok" data-testid="setup-test-result" data-ok="true">
        {differ === 0 ? t('setup.testOk', { profile }) : t('setup.testOkDiffers', { profile, count: differ })}
      </div>
    ),
  };
}

/** The model answered the plain chat check; capability mismatches are for Settings → Models, not a failure here. */
function passedChat(report: ProbeReport): boolean {
  return report.rows[0]?.check === 'chat' && report.rows[0].ok;
}

function hostOf(base: string): string {
  try {
    return new URL(base.trim()).hostname;
  } catch {
    return '';
  }
}
