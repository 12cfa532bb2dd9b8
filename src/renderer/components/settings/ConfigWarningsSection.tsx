import { useTranslation } from 'react-i18next';
import type { ConfigWarning } from '../../../shared/contract';
import { configFindingText } from '../../../shared/config-finding-text';
import { Icon } from '../Icon';
import { ServerDetail } from '../ErrorText';

/**
 * Problems found reading model profiles and skills, each naming its file and said in the person's
 * language; the checker's English detail is said in English sentences already, and offered to copy
 * on other screens. Shown only when there are some.
 */
export function ConfigWarningsSection({ warnings }: { warnings: ConfigWarning[] }) {
  const { t, i18n } = useTranslation();
  const english = i18n.language.startsWith('en');
  return (
    <section className="settings-section" data-testid="config-warnings-section">
      <h2 tabIndex={-1}>{t('settings.warnings')}</h2>
      <ul className="warning-list" data-testid="config-warnings">
        {warnings.map((w, i) => (
          <li key={i} className="warning-item">
            <Icon name="alert" size={14} />
            <code>{w.source}</code>
            <span>{configFindingText(w.finding, w.detail, t)}</span>
            {!english && <ServerDetail text={w.detail ?? null} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
