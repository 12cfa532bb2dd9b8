// A text file (notes, CSV, JSON) shown as it is, whether a task's source or a library's file;
// anything else says it can only be downloaded.
import { useTranslation } from 'react-i18next';
import type { FileRef } from '../state/file-bytes';
import { useFileText } from '../state/use-file-text';
import { plainT } from '../i18n/plain';

export function FileTextPreview({ file, testId }: { file: FileRef; testId: string }) {
  const { t } = useTranslation();
  const text = useFileText(file);
  if (text === undefined) return <span className="spinner" aria-label={plainT('common.loading')} />;
  if (text === null) return <div className="preview-none muted">{t('sourceView.noPreview')}</div>;
  return (
    <pre className="source-text" data-testid={testId}>
      {text}
    </pre>
  );
}
