import { useTranslation } from 'react-i18next';

/** A command, the same in every language. */
const SERVE_COMMAND = 'folio serve';

interface NoTokenScreenProps {
  /** `missing`: the address has no token (a bookmark); `refused`: the server does not accept it. */
  reason: 'missing' | 'refused';
}

/** Web mode opened without a usable access token: what happened and how to get back in. */
export function NoTokenScreen({ reason }: NoTokenScreenProps) {
  const { t } = useTranslation();
  return (
    <div className="no-token-page" data-testid="no-token" data-reason={reason}>
      <main className="welcome">
        <div className="welcome-card no-token-card">
          <h1>{t(`access.${reason}.title`)}</h1>
          <p>{t(`access.${reason}.body`)}</p>
          <ol className="no-token-steps">
            <li>{t('access.step1')}</li>
            <li>
              {t('access.step2')} <code>{SERVE_COMMAND}</code>
            </li>
          </ol>
          <p className="muted">{t('access.why')}</p>
        </div>
      </main>
    </div>
  );
}
