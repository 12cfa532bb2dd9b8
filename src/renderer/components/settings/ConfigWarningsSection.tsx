import { useTranslation } from 'react-i18next';
import type { ConfigWarning } from '../../../shared/contract';
import { Icon } from '../Icon';
import { ServerDetail } from '../ErrorText';

/** Problems found reading model profiles and skills, each naming its file; shown only when there are some. */
export function ConfigWarningsSection({ warnings }: { warnings: ConfigWarning[] }) {
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
