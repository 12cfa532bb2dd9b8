// A finding of a deck's or a document's check as the person reads it. The engines write their
// findings in English, precise and addressed to whoever fixes the source (often the model): on an
// English screen they are shown as they are; on any other, the kind's explanation in the person's
// language is shown, and the engine's words can only be copied (for a bug report).
import { useTranslation } from 'react-i18next';
import { ServerDetail } from '../ErrorText';

export function FindingText({ help, message }: { help: string; message: string }) {
  const { i18n } = useTranslation();
  if (i18n.language.startsWith('en') || help === '') return <ServerDetail text={message} />;
  return (
    <>
      {help} <ServerDetail text={message} />
    </>
  );
}
