// Settings → Semantic search: an OpenAI-compatible /embeddings endpoint for library
// search (base URL, model, optional dimensions), its key, and a Test that embeds one text in main.
// The key goes to the key store through setApiKey and is never read back: the form only learns
// whether one is stored. Without a profile, library search is full text alone.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMBEDDING_DEFAULT_KEY_ENV, type EmbeddingSettings, type EmbeddingSettingsInput } from '../../../shared/contract';
import { useApp } from '../../state/app-store';
import { useSaveAndTest } from '../../state/use-save-and-test';
import { KeyFields } from './KeyFields';
import { ServiceForm, TextField } from './ServiceForm';

/** The key variable field stays empty for the default, so the placeholder shows it. */
function customKeyEnv(env: string | undefined): string {
  return env === undefined || env === EMBEDDING_DEFAULT_KEY_ENV ? '' : env;
}

function dimensionsText(dimensions: number | null | undefined): string {
  return dimensions == null ? '' : String(dimensions);
}

export function EmbeddingSection() {
  return <EmbeddingForm current={useApp((s) => s.settings?.embedding)} />;
}

/** The form for a stored profile (undefined: none), apart from the store so it renders on its own. */
export function EmbeddingForm({ current }: { current: EmbeddingSettings | undefined }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(current !== undefined);
  const [baseUrl, setBaseUrl] = useState(current?.base_url ?? '');
  const [model, setModel] = useState(current?.model ?? '');
  const [dimensions, setDimensions] = useState(dimensionsText(current?.dimensions));
  const [keyEnv, setKeyEnv] = useState(customKeyEnv(current?.api_key_env));
  const [key, setKey] = useState('');

  // The form starts from what is stored, and follows it when Settings reloads.
  useEffect(() => {
    setEnabled(current !== undefined);
    setBaseUrl(current?.base_url ?? '');
    setModel(current?.model ?? '');
    setDimensions(dimensionsText(current?.dimensions));
    setKeyEnv(customKeyEnv(current?.api_key_env));
  }, [current]);

  const envName = keyEnv.trim() || EMBEDDING_DEFAULT_KEY_ENV;
  const dims = dimensions.trim() === '' ? undefined : Number(dimensions.trim());
  const dimsValid = dims === undefined || (Number.isInteger(dims) && dims > 0);
  const canSave = !enabled || (baseUrl.trim() !== '' && model.trim() !== '' && dimsValid);

  const input = (): EmbeddingSettingsInput | null =>
    enabled
      ? {
          base_url: baseUrl.trim(),
          model: model.trim(),
          ...(keyEnv.trim() ? { api_key_env: keyEnv.trim() } : {}),
          ...(dims !== undefined ? { dimensions: dims } : {}),
        }
      : null;

  const flow = useSaveAndTest({
    update: (client) => client.updateSettings({ embedding: input() }),
    keyEnv: enabled ? envName : null,
    key,
    clearKey: () => setKey(''),
    // The form's values are tried unsaved: an endpoint that fails never replaces one that works.
    test: (client) => {
      const embedding = input();
      return client.testEmbedding(embedding ? { embedding, ...(key.trim() ? { key: key.trim() } : {}) } : {});
    },
    savesIf: (report) => report.ok,
  });
  const { editing } = flow;

  return (
    <section className="settings-section" data-testid="embedding-section">
      <h2 tabIndex={-1}>{t('embedding.title')}</h2>
      <p className="muted">{t('embedding.intro')}</p>
      <ServiceForm
        section="embedding"
        flow={flow}
        canSave={canSave}
        testable={enabled}
        passed={(report) => (
          <div className="probe-summary ok" data-testid="embedding-test-result">
            {t('embedding.testOk', { dimensions: report.dimensions ?? 0 })}
          </div>
        )}
      >
        <label className="form-row">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(e) => editing(setEnabled)(e.target.checked)}
            data-testid="embedding-enabled"
          />
          <span>{t('embedding.enabled')}</span>
        </label>
        {enabled && (
          <>
            <TextField
              label={t('embedding.baseUrl')}
              type="url"
              placeholder={t('embedding.baseUrlPlaceholder')}
              value={baseUrl}
              onValue={editing(setBaseUrl)}
              testId="embedding-base-url"
            />
            <TextField
              label={t('embedding.model')}
              placeholder={t('embedding.modelPlaceholder')}
              value={model}
              onValue={editing(setModel)}
              testId="embedding-model"
            />
            <TextField
              label={t('embedding.dimensions')}
              inputMode="numeric"
              placeholder={t('embedding.dimensionsPlaceholder')}
              value={dimensions}
              aria-invalid={!dimsValid}
              onValue={editing(setDimensions)}
              testId="embedding-dimensions"
            />
            <KeyFields
              section="embedding"
              keyEnv={keyEnv}
              defaultKeyEnv={EMBEDDING_DEFAULT_KEY_ENV}
              onKeyEnv={editing(setKeyEnv)}
              keyValue={key}
              onKey={editing(setKey)}
              stored={current?.has_key === true}
              envName={envName}
            />
          </>
        )}
      </ServiceForm>
    </section>
  );
}
