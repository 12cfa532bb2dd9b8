// A library's files with their index status, the measured progress, adding and deleting files, and
// the search box. Used by a project's page and by the personal library's page.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IndexProgress, LibraryFile } from '../../shared/contract';
import { formatBytes } from '../lib/format';
import { useLibrary } from '../state/library-store';
import { ConfirmDialog } from './ConfirmDialog';
import { FilePickerButton } from './FilePickerButton';
import { Icon } from './Icon';
import { LibrarySearch } from './LibrarySearch';
import { ErrorText, ServerDetail } from './ErrorText';

export function LibraryPanel({ libraryId }: { libraryId: string }) {
  const { t } = useTranslation();
  const files = useLibrary((s) => s.files);
  const progress = useLibrary((s) => s.progress);
  const uploading = useLibrary((s) => s.uploading);
  const error = useLibrary((s) => s.error);
  const load = useLibrary((s) => s.load);
  const upload = useLibrary((s) => s.upload);
  const remove = useLibrary((s) => s.remove);
  const [over, setOver] = useState(false);
  const [deleting, setDeleting] = useState<LibraryFile | null>(null);

  useEffect(() => {
    void load(libraryId);
    return () => void load(null); // leaving the page stops the polling
  }, [libraryId, load]);

  return (
    <section className="settings-section library" aria-labelledby="library-heading" data-testid="library-panel" data-library={libraryId}>
      <div className="library-header">
        <h2 id="library-heading">
          {t('library.heading')}
          <span className="count">{files.length}</span>
        </h2>
        <FilePickerButton className="btn btn-small" onPick={(picked) => void upload(picked)} disabled={uploading} testId="library-add" inputTestId="library-file-input">
          <Icon name="upload" size={14} />
          {t('library.add')}
        </FilePickerButton>
      </div>
      <p className="muted library-hint">{t(libraryId === 'personal' ? 'library.personalHint' : 'library.projectHint')}</p>
      <div
        className={over ? 'drop-zone over' : 'drop-zone'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        // The window's drop overlay takes the files (to this library while its page is open).
        onDrop={() => setOver(false)}
        data-testid="library-drop-zone"
      >
        {uploading ? t('files.uploading') : t('library.dropHint')}
      </div>
      {progress && <ProgressLine progress={progress} />}
      {error && (
        <div className="inline-error" role="alert" data-testid="library-error">
          <ErrorText error={error} />
        </div>
      )}
      {files.length === 0 ? (
        progress && (
          <p className="file-empty muted" data-testid="library-empty">
            {t('library.empty')}
          </p>
        )
      ) : (
        <ul className="file-list library-files">
          {files.map((file) => (
            <li key={file.path} className="file-item" data-testid="library-file" data-path={file.path} data-status={file.status}>
              <div className="file-row">
                <Icon name="file" size={14} />
                <span className="file-name" title={file.task_path}>
                  {file.path}
                </span>
                <LibraryStatus file={file} />
                <span className="file-size">{formatBytes(file.size)}</span>
                <button
                  type="button"
                  className="icon-btn"
                  onClick={() => setDeleting(file)}
                  title={t('library.delete')}
                  aria-label={t('library.deleteNamed', { name: file.path })}
                  data-testid="library-file-delete"
                >
                  <Icon name="trash" size={14} />
                </button>
              </div>
              {file.message && (file.status === 'error' || file.status === 'scanned') && (
                <div className={file.status === 'error' ? 'source-message' : 'source-message muted'} role={file.status === 'error' ? 'alert' : undefined}>
                  <ServerDetail text={file.message} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <LibrarySearch libraryId={libraryId} />
      {deleting && (
        <ConfirmDialog
          title={t('library.deleteTitle')}
          body={t('library.deleteBody', { name: deleting.path })}
          confirmLabel={t('library.delete')}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const path = deleting.path;
            setDeleting(null);
            void remove(path);
          }}
        />
      )}
    </section>
  );
}

/** Measured, not estimated: files still queued and pages in the index. */
function ProgressLine({ progress }: { progress: IndexProgress }) {
  const { t } = useTranslation();
  const { total_files, queued_files, indexed_pages, embedded_pages } = progress;
  if (queued_files > 0) {
    const done = total_files - queued_files;
    return (
      <div className="library-progress" role="status" data-testid="library-progress" data-queued={queued_files}>
        <span className="spinner spinner-tiny" />
        <span>{t('library.indexing', { done, total: total_files, pages: indexed_pages })}</span>
        <progress max={total_files} value={done} aria-label={t('library.indexingLabel')} />
      </div>
    );
  }
  return (
    <p className="library-progress muted" role="status" data-testid="library-progress" data-queued={0}>
      {t('library.indexed', { count: total_files, pages: indexed_pages })}
      {embedded_pages > 0 && ` · ${t('library.embedded', { pages: embedded_pages })}`}
    </p>
  );
}

function LibraryStatus({ file }: { file: LibraryFile }) {
  const { t } = useTranslation();
  const pages = file.pages === null ? null : t('sources.pages', { count: file.pages });
  let label: string;
  switch (file.status) {
    case 'pending':
      label = t('library.status.pending');
      break;
    case 'indexing':
      label = t('library.status.indexing');
      break;
    case 'ok':
      label = pages ?? t('sources.ready');
      break;
    case 'scanned':
      label = pages ? t('sources.scannedPages', { pages }) : t('sources.scanned');
      break;
    case 'image':
      label = t('sources.image');
      break;
    case 'error':
      label = t('sources.error');
      break;
  }
  const hint = file.status === 'scanned' ? t('library.scannedHint') : file.status === 'image' ? t('sources.imageHint') : (file.message ?? label);
  // The task sources' badge colours, with `indexing` drawn as pending.
  const look = file.status === 'indexing' ? 'pending' : file.status;
  return (
    <span className={`source-status source-${look}`} title={hint} data-testid="library-file-status" data-status={file.status}>
      {(file.status === 'pending' || file.status === 'indexing') && <span className="spinner spinner-tiny" />}
      {label}
    </span>
  );
}
