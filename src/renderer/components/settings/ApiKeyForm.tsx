import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/app-store';
import { SecretInput } from '../SecretInput';
import { plainT } from '../../i18n/plain';

/** Stores a key for one of the profiles' environment variables; the key is write-only from here on. */
export function ApiKeyForm() {
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
      <select className="select" value={selected} onChange={(e) => setEnv(e.target.value)} aria-label={plainT('settings.apiKeyEnv')}>
        {envs.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <SecretInput
        placeholder={t('settings.apiKeyPlaceholder')}
        aria-label={plainT('settings.apiKey')}
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
