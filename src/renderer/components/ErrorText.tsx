// An error as a person reads it (see lib/error-view.ts): its kind, what to do, and on a screen not in
// English the server's own words only behind "Details".
import { useTranslation } from 'react-i18next';
import { errorView } from '../lib/error-view';
import type { ErrorInfo } from '../state/notices';

export function ErrorText({ error }: { error: ErrorInfo }) {
  const { t, i18n } = useTranslation();
  const view = errorView(error, t, i18n.language);
  return (
    <span className="error-text" data-testid="error-text" data-error-code={error.code}>
      <strong>{view.title}</strong> {view.text}
      {view.detail && (
        <details className="error-detail">
          <summary>{t('errorHelp.details')}</summary>
          <span lang="en">{view.detail}</span>
        </details>
      )}
    </span>
  );
}

/**
 * A server's English explanation beside a localized headline: inline on an English screen, behind
 * "Details" on any other.
 */
export function ServerDetail({ text }: { text: string | null }) {
  const { t, i18n } = useTranslation();
  if (!text?.trim()) return null;
  if (i18n.language.startsWith('en')) return <span>{text}</span>;
  return (
    <details className="error-detail">
      <summary>{t('errorHelp.details')}</summary>
      <span lang="en">{text}</span>
    </details>
  );
}
