// The key of a service Folio calls (web search, embeddings): the name it is kept under (an
// environment variable or the key store) and the key itself, which is written, never read back.
import { useTranslation } from 'react-i18next';
import { SecretInput } from '../SecretInput';

interface KeyFieldsProps {
  /** The section whose strings label the fields (`<section>.keyEnv`, `.key`, `.keyStored`, `.keyPlaceholder`). */
  section: 'search' | 'embedding';
  keyEnv: string;
  /** The name used when none is typed. */
  defaultKeyEnv: string;
  /** The section's setters, which also mark its form edited (its test result no longer holds). */
  onKeyEnv: (value: string) => void;
  keyValue: string;
  onKey: (value: string) => void;
  /** A key is stored under `envName` already: the empty field says so. */
  stored: boolean;
  envName: string;
}

export function KeyFields({ section, keyEnv, defaultKeyEnv, onKeyEnv, keyValue, onKey, stored, envName }: KeyFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <label className="form-row">
        <span className="form-label">{t(`${section}.keyEnv`)}</span>
        <input
          className="input"
          spellCheck={false}
          placeholder={defaultKeyEnv}
          value={keyEnv}
          onChange={(e) => onKeyEnv(e.target.value.toUpperCase())}
          data-testid={`${section}-key-env`}
        />
      </label>
      <label className="form-row">
        <span className="form-label">{t(`${section}.key`)}</span>
        <SecretInput
          placeholder={stored ? t(`${section}.keyStored`, { env: envName }) : t(`${section}.keyPlaceholder`)}
          value={keyValue}
          onValue={onKey}
          data-testid={`${section}-key`}
        />
      </label>
    </>
  );
}
