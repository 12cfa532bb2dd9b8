// Copies a text to the clipboard and says so for a moment. The text is read when clicked, so a code
// block can hand over what it shows (`read`) instead of re-deriving it from the markdown.
import { useEffect, useState } from 'react';
import { reportError } from '../state/notices';
import { Icon } from './Icon';
import { usePlainT } from '../i18n/plain';

const COPIED_MS = 1500;

interface CopyButtonProps {
  read: () => string;
  /** i18n key of what is copied ("Copy message", "Copy code"). */
  label: string;
  testId: string;
}

/** Copies what `read` returns when called; `copied` is true for a moment after. */
export function useCopy(read: () => string): { copied: boolean; copy: () => Promise<void> } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(read());
      setCopied(true);
    } catch (err) {
      reportError(err);
    }
  };
  return { copied, copy };
}

export function CopyButton({ read, label, testId }: CopyButtonProps) {
  const plainT = usePlainT();
  const { copied, copy } = useCopy(read);
  const text = copied ? plainT('copy.copied') : plainT(label);
  return (
    <button type="button" className={`icon-btn copy-btn${copied ? ' copied' : ''}`} onClick={() => void copy()} aria-label={text} title={text} data-testid={testId}>
      <Icon name={copied ? 'check' : 'copy'} size={14} />
    </button>
  );
}
