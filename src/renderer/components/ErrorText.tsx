// An error as a person reads it (see lib/error-view.ts): its kind and what to do, in the person's
// language. On a screen not in English the server's own words are never shown, only copied on request.
import { useTranslation } from 'react-i18next';
import { errorView } from '../lib/error-view';
import type { ErrorInfo } from '../state/notices';
import { CopyOriginal } from './CopyOriginal';

export function ErrorText({ error }: { error: ErrorInfo }) {
  const { t, i18n } = useTranslation();
  const view = errorView(error, t, i18n.language);
  return (
    <span className="error-text" data-testid="error-text" data-error-code={error.code}>
      <strong>{view.title}</strong> {view.text}
      {view.detail && (
        <>
          {' '}
          <CopyOriginal text={view.detail} />
        </>
      )}
    </span>
  );
}

/** A server's English explanation beside a localized headline: inline on an English screen, to copy on any other. */
export function ServerDetail({ text }: { text: string | null }) {
  const { i18n } = useTranslation();
  if (!text?.trim()) return null;
  if (i18n.language.startsWith('en')) return <span>{text}</span>;
  return <CopyOriginal text={text} />;
}
