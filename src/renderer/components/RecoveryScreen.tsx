import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HealthReport } from '../../shared/contract/methods';
import { getApi } from '../state/api';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { ErrorText, ServerDetail } from './ErrorText';
import { formatDateTime } from '../lib/format';

interface RecoveryScreenProps {
  health: HealthReport;
  /** Called once the backup is back in place; the app then starts as usual. */
  onRestored: () => void;
}

/** Shown instead of the app when Folio's database is damaged: what happened, and the way back. */
export function RecoveryScreen({ health, onRestored }: RecoveryScreenProps) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);

  const restore = async () => {
    setBusy(true);
    setError(null);
    try {
      await getApi().client.restoreBackup({});
      onRestored();
    } catch (err) {
      setError(toErrorInfo(err));
      setBusy(false);
    }
  };

  const backupTime = health.backup_at === null ? null : formatDateTime(health.backup_at, i18n.language);
  return (
    <div className="app" data-testid="recovery">
      <main className="welcome">
        <div className="welcome-card recovery-card" role="alert">
          <h1>{t('recovery.title')}</h1>
          <p>{backupTime ? t('recovery.bodyWithBackup', { time: backupTime }) : t('recovery.bodyNoBackup')}</p>
          {health.message && (
            <p className="muted recovery-detail">
              <ServerDetail text={health.message} />
            </p>
          )}
          {backupTime && (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void restore()} data-testid="recovery-restore">
              {busy ? t('recovery.restoring') : t('recovery.restore')}
            </button>
          )}
          {error && (
            <p className="recovery-error">
              <strong>{t('recovery.failed')}</strong> <ErrorText error={error} />
            </p>
          )}
        </div>
      </main>
    </div>
  );
}
