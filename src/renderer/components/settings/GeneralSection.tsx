import { useTranslation } from 'react-i18next';
import { spacedT } from '../../i18n/spaced';
import type { Settings, Usage } from '../../../shared/contract';
import { formatTokens, formatTotalCost } from '../../lib/format';
import { useApp } from '../../state/app-store';
import { useArtifacts } from '../../state/artifacts-store';
import { useUsage } from '../../state/usage-store';
import { ModelOptions } from '../ModelOptions';

const languages: Settings['language'][] = ['system', 'en', 'zh-CN'];

/** The usage so far: tokens, then the cost as the run footer says it, or that no price is set (never "cost No price set"). */
export function TotalUsage({ usage, money }: { usage: Pick<Usage, 'prompt_tokens' | 'completion_tokens'>; money: string | null }) {
  const { t } = useTranslation();
  const tokens = t('usage.totalValue', {
    tokens: formatTokens(usage.prompt_tokens + usage.completion_tokens),
    prompt: formatTokens(usage.prompt_tokens),
    completion: formatTokens(usage.completion_tokens),
  });
  return <>{spacedT('usage.totalLine', { tokens, cost: money === null ? t('usage.noPrice') : spacedT('usage.cost', { cost: money }) })}</>;
}

/** Where the data lives, the language, the default model, what this machine can run, and the usage so far. */
export function GeneralSection() {
  const { t, i18n } = useTranslation();
  const app = useApp();
  const usage = useUsage((s) => s.total);
  const capabilities = useArtifacts((s) => s.capabilities);
  return (
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
          {usage ? <TotalUsage usage={usage} money={formatTotalCost(usage.cost, app.profiles, i18n.language)} /> : t('common.loading')}
        </span>
      </div>
    </section>
  );
}
