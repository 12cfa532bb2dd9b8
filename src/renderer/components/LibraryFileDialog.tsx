// A library file opened from a search hit: a PDF drawn from the hit's page on, a text file as it is,
// anything else offered as a download.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryHit } from '../../shared/contract';
import { fileBytes } from '../state/file-bytes';
import { saveBlob } from '../state/files-store';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { TEXT_FILE } from '../state/use-file-text';
import { ErrorText } from './ErrorText';
import { FileTextPreview } from './FileTextPreview';
import { Icon } from './Icon';
import { plainT } from '../i18n/plain';

const PdfPreview = lazy(() => import('./preview/PdfPreview').then((m) => ({ default: m.PdfPreview })));

export function LibraryFileDialog({ hit, onClose }: { hit: Pick<LibraryHit, 'library' | 'path' | 'page'>; onClose: () => void }) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const name = hit.path.slice(hit.path.lastIndexOf('/') + 1);
  const file = { kind: 'library' as const, libraryId: hit.library, path: hit.path };

  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const download = async () => {
    setError(null);
    try {
      saveBlob(await fileBytes(file), name);
    } catch (err) {
      setError(toErrorInfo(err));
    }
  };

  return (
    <div className="modal-backdrop" onMouseDown={onClose}>
      <div
        className="modal library-file-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="library-file-title"
        data-testid="library-file-dialog"
        data-path={hit.path}
        data-page={hit.page}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <div className="library-file-head">
          <Icon name="file" size={14} />
          <h2 id="library-file-title" className="modal-title" title={hit.path}>
            {name}
          </h2>
          <span className="muted">{t('library.page', { page: hit.page })}</span>
          <button type="button" className="btn btn-small" onClick={() => void download()} data-testid="library-file-download">
            <Icon name="download" size={14} />
            {t('library.download')}
          </button>
          <button ref={closeRef} type="button" className="icon-btn" onClick={onClose} aria-label={plainT('common.close')} title={plainT('common.close')} data-testid="library-file-close">
            <Icon name="close" size={14} />
          </button>
        </div>
        {error && (
          <div className="inline-error" role="alert">
            <ErrorText error={error} />
          </div>
        )}
        <div className="library-file-body">
          {/\.pdf$/iu.test(hit.path) ? (
            <Suspense fallback={<span className="spinner" aria-label={plainT('common.loading')} />}>
              <PdfPreview file={file} page={hit.page} paged />
            </Suspense>
          ) : TEXT_FILE.test(hit.path) ? (
            <FileTextPreview file={file} testId="library-file-text" />
          ) : (
            <p className="preview-none muted">{t('sourceView.noPreview')}</p>
          )}
        </div>
      </div>
    </div>
  );
}
