// Settings → Web search: which backend web_search asks (SearXNG, Brave, Tavily, Bing), its
// URL or key, and a Test that runs one query in main. The key goes to the key store through
// setApiKey and is never read back: the form only learns whether one is stored.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_BACKENDS, type SearchBackend, type SearchSettingsInput, type SearchTestReport } from '../../../shared/contract';
import { useApp } from '../../state/app-store';
import { useSaveAndTest } from '../../state/use-save-and-test';
import { KeyFields } from './KeyFields';
import { ServiceForm, TextField } from './ServiceForm';

type Choice = SearchBackend | 'none';
const CHOICES: Choice[] = ['none', 'searxng', 'brave', 'tavily', 'bing'];

export function SearchSection() {
  const { t } = useTranslation();
  const current = useApp((s) => s.settings?.search);
  const [backend, setBackend] = useState<Choice>('none');
  const [url, setUrl] = useState('');
  const [keyEnv, setKeyEnv] = useState('');
  const [key, setKey] = useState('');

  // The form starts from what is stored, and follows it when Settings reloads.
  useEffect(() => {
    setBackend(current?.backend ?? 'none');
    setUrl(current?.url ?? '');
    setKeyEnv(current?.api_key_env ?? '');
  }, [current?.backend, current?.url, current?.api_key_env]);

  const facts = backend === 'none' ? null : SEARCH_BACKENDS[backend];
  const usesKey = facts !== null && facts.defaultKeyEnv !== null;
  const envName = keyEnv.trim() || facts?.defaultKeyEnv || '';

  const choose = (next: Choice) => {
    setBackend(next);
    edited();
    // Another provider: its own default variable and endpoint, unless the person types others.
    const stored = next === current?.backend ? current : null;
    setKeyEnv(stored?.api_key_env ?? '');
    setUrl(stored?.url ?? '');
  };

  const input = (): SearchSettingsInput | null => {
    if (backend === 'none') return null;
    return {
      backend,
      ...(url.trim() ? { url: url.trim() } : {}),
      ...(usesKey && keyEnv.trim() ? { api_key_env: keyEnv.trim() } : {}),
    };
  };

  const flow = useSaveAndTest({
    update: (client) => client.updateSettings({ search: input() }),
    keyEnv: usesKey ? envName : null,
    key,
    clearKey: () => setKey(''),
    // The form's values are tried unsaved: a URL or key that fails never replaces what works.
    test: (client) => {
      const search = input();
      return client.testSearch(search ? { search, ...(usesKey && key.trim() ? { key: key.trim() } : {}) } : {});
    },
    savesIf: (report) => report.ok,
  });
  const { edited, editing } = flow;

  const needsUrl = facts?.needsUrl === true;
  const canSave = backend === 'none' || !needsUrl || url.trim() !== '';

  return (
    <section className="settings-section" data-testid="search-section">
      <h2 tabIndex={-1}>{t('search.title')}</h2>
      <p className="muted">{t('search.intro')}</p>
      <ServiceForm section="search" flow={flow} canSave={canSave} testable={backend !== 'none'} passed={(report) => <TestHits report={report} />}>
        <label className="form-row">
          <span className="form-label">{t('search.backend')}</span>
          <select className="select" value={backend} onChange={(e) => choose(e.target.value as Choice)} data-testid="search-backend">
            {CHOICES.map((c) => (
              <option key={c} value={c}>
                {t(`search.backends.${c}`)}
              </option>
            ))}
          </select>
        </label>
        {facts && (
          <TextField
            label={needsUrl ? t('search.url') : t('search.endpoint')}
            type="url"
            placeholder={needsUrl ? t('search.urlPlaceholder') : t('search.endpointPlaceholder')}
            value={url}
            onValue={editing(setUrl)}
            testId="search-url"
          />
        )}
        {usesKey && (
          <KeyFields
            section="search"
            keyEnv={keyEnv}
            defaultKeyEnv={facts?.defaultKeyEnv ?? ''}
            onKeyEnv={editing(setKeyEnv)}
            keyValue={key}
            onKey={editing(setKey)}
            stored={current?.backend === backend && current.has_key}
            envName={envName}
          />
        )}
      </ServiceForm>
    </section>
  );
}

/** A passing test's hits: title and address. */
function TestHits({ report }: { report: SearchTestReport }) {
  const { t } = useTranslation();
  return (
    <div className="search-test-result" data-testid="search-test-result">
      <div className="probe-summary ok">{t('search.testOk', { count: report.results.length })}</div>
      <ol className="search-test-hits">
        {report.results.map((hit) => (
          <li key={hit.url}>
            <span className="cell-strong">{hit.title}</span> <code className="cell-mono">{hit.url}</code>
          </li>
        ))}
      </ol>
    </div>
  );
}
