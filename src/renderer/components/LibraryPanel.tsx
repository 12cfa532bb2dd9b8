// A library's files with their index status, the measured progress, adding and deleting files, and
// the search box. Used by a project's page and by the personal library's page.
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IndexProgress, LibraryFile } from '../../shared/contract';
import { useLibrary } from '../state/library-store';
import { ConfirmDialog } from './ConfirmDialog';
import { FilePickerButton } from './FilePickerButton';
import { Icon } from './Icon';
import { LibraryFileDialog } from './LibraryFileDialog';
import { LibrarySearch } from './LibrarySearch';
import { ErrorText } from './ErrorText';
import { DropZone, FileRow, FileStatusBadge } from './FileRows';
import { plainT } from '../i18n/plain';

export function LibraryPanel({ libraryId }: { libraryId: string }) {
  const { t } = useTranslation();
  const files = useLibrary((s) => s.files);
  const progress = useLibrary((s) => s.progress);
  const uploading = useLibrary((s) => s.uploading);
  const error = useLibrary((s) => s.error);
  const load = useLibrary((s) => s.load);
  const upload = useLibrary((s) => s.upload);
  const remove = useLibrary((s) => s.remove);
  const [deleting, setDeleting] = useState<LibraryFile | null>(null);
  const [opened, setOpened] = useState<{ library: string; path: string; page: number } | null>(null);
  const closeOpened = useCallback(() => setOpened(null), []);

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
      <DropZone busy={uploading} hint={t('library.dropHint')} testId="library-drop-zone" />
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
            <FileRow
              key={file.path}
              testId="library-file"
              path={file.path}
              status={file.status}
              size={file.size}
              name={
                <button type="button" className="file-name file-open" title={file.task_path} onClick={() => setOpened({ library: libraryId, path: file.path, page: 1 })} data-testid="library-file-open">
                  {file.path}
                </button>
              }
              badge={<FileStatusBadge status={file.status} pages={file.pages} message={file.message} pendingLabel={t('library.status.pending')} scannedHint={plainT('library.scannedHint')} testId="library-file-status" />}
              action={
                <button
                  type="button"
                  className="icon-btn"
                  onClick={() => setDeleting(file)}
                  title={plainT('library.delete')}
                  aria-label={plainT('library.deleteNamed', { name: file.path })}
                  data-testid="library-file-delete"
                >
                  <Icon name="trash" size={14} />
                </button>
              }
              message={file.message && (file.status === 'error' || file.status === 'scanned') ? { text: file.message, error: file.status === 'error' } : null}
            />
          ))}
        </ul>
      )}
      <LibrarySearch libraryId={libraryId} />
      {opened && <LibraryFileDialog hit={opened} onClose={closeOpened} />}
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
        <progress max={total_files} value={done} aria-label={plainT('library.indexingLabel')} />
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
