// Files attached in the composer are uploaded into the task's folder at once; the message names them
// (in the UI language, as the person would), so the model knows which files this message is about.
import type { TFunction } from 'i18next';

export function withAttachments(text: string, paths: readonly string[], t: TFunction): string {
  if (paths.length === 0) return text;
  const line = t('composer.attachedRef', { files: paths.join(t('composer.listSeparator')) });
  return text === '' ? line : `${text}\n\n${line}`;
}
