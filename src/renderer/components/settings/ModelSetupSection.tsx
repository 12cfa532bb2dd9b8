// Settings' way back to the model setup (first-run): whether a model is usable, and the button.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../state/app-store';
import { useSetup } from '../../state/setup-store';

export function ModelSetupSection() {
  const { t } = useTranslation();
  const status = useSetup((s) => s.status);
  const setView = useApp((s) => s.setView);

  const ensure = useSetup((s) => s.ensure);
  useEffect(() => {
    void ensure();
  }, [ensure]);

  return (
    <section className="settings-section" data-testid="model-setup-section">
      <h2 tabIndex={-1}>{t('setup.sectionTitle')}</h2>
      <p className={status && !status.ready ? 'text-warning' : 'muted'} data-testid="model-setup-state">
        {status === null ? t('common.loading') : status.ready ? t('setup.sectionReady') : status.problem}
      </p>
      <button type="button" className="btn" onClick={() => setView('setup')} data-testid="open-setup">
        {t('setup.open')}
      </button>
    </section>
  );
}
