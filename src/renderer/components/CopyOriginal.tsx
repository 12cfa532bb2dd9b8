// Folio's own English words (a server's message, what a tool told the model, an engine's finding) on a
// screen in another language: never shown there, only copied on request, for a bug report. The person
// reads the localized account beside it.
import { useTranslation } from 'react-i18next';
import { useCopy } from './CopyButton';
import { Icon } from './Icon';
import { plainT } from '../i18n/plain';

export function CopyOriginal({ text, testId = 'copy-original' }: { text: string; testId?: string }) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy(() => text);
  return (
    <button type="button" className={`copy-original${copied ? ' copied' : ''}`} onClick={() => void copy()} title={plainT('copy.originalHint')} data-testid={testId}>
      <Icon name={copied ? 'check' : 'copy'} size={12} />
      {copied ? t('copy.copied') : t('copy.original')}
    </button>
  );
}
