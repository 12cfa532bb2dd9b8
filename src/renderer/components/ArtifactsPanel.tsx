// The task's results (decks, documents, PDFs): pick one, see it, open or download it, export a PDF.
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '../../shared/contract';
import { formatBytes } from '../lib/format';
import { artifactType, fileName, listArtifacts, type PanelTab, pdfPathFor, useArtifacts } from '../state/artifacts-store';
import { useFiles } from '../state/files-store';
import { Icon } from './Icon';
import { ErrorText } from './ErrorText';
import { FileTextPreview } from './FileTextPreview';
import { plainT } from '../i18n/plain';

// The preview pulls in markdown rendering and the deck drawing code; most sessions never open it.
const ArtifactPreview = lazy(() => import('./preview/ArtifactPreview').then((m) => ({ default: m.ArtifactPreview })));

export function ArtifactsPanel({ taskId }: { taskId: string }) {
  const { t } = useTranslation();
  const files = useFiles((s) => s.files);
  const filesTaskId = useFiles((s) => s.taskId);
  const selectedPath = useArtifacts((s) => s.selected[taskId]);
  const select = useArtifacts((s) => s.select);
  const loadCapabilities = useArtifacts((s) => s.loadCapabilities);
  const artifacts = useMemo(() => (filesTaskId === taskId ? listArtifacts(files) : []), [files, filesTaskId, taskId]);
  // Until the person picks one, the newest result is shown.
  const selected = artifacts.find((a) => a.path === selectedPath) ?? artifacts[0] ?? null;

  useEffect(() => {
    void loadCapabilities();
  }, [loadCapabilities]);

  const source = useArtifacts((s) => s.sources[taskId]);
  const sourceFile = source && filesTaskId === taskId ? files.find((f) => f.path === source.path) : undefined;
  if (source && sourceFile) return <SourceView taskId={taskId} path={source.path} page={source.page} from={source.from} />;

  return (
    <div className="artifacts-panel" data-testid="artifacts-panel">
      {artifacts.length === 0 ? (
        <div className="file-empty muted artifacts-empty" data-testid="artifacts-empty">
          {t('artifacts.empty')}
        </div>
      ) : (
        <ul className="artifact-list" role="listbox" aria-label={plainT('artifacts.heading')}>
          {artifacts.map((entry) => {
            const type = artifactType(entry.path) ?? 'pdf';
            const isSelected = entry.path === selected?.path;
            return (
              <li
                key={entry.path}
                role="option"
                aria-selected={isSelected}
                className={isSelected ? 'artifact-item selected' : 'artifact-item'}
                tabIndex={0}
                onClick={() => select(taskId, entry.path)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    select(taskId, entry.path);
                  }
                }}
                data-testid="artifact-item"
                data-path={entry.path}
              >
                <span className={`artifact-type type-${type}`}>{t(`artifacts.type.${type}`)}</span>
                <span className="file-name" title={entry.path}>
                  {fileName(entry.path)}
                </span>
                <span className="file-size">{formatBytes(entry.size)}</span>
              </li>
            );
          })}
        </ul>
      )}
      {selected && (
        <div className="artifact-detail">
          <ArtifactActions entry={selected} hasPdf={artifacts.some((a) => a.path === pdfPathFor(selected.path) && a.path !== selected.path)} />
          <div className="artifact-preview" data-testid="artifact-preview" data-path={selected.path}>
            <Suspense
              fallback={
                <div className="preview-loading muted">
                  <span className="spinner" />
                  {t('preview.loading')}
                </div>
              }
            >
              <ArtifactPreview taskId={taskId} path={selected.path} />
            </Suspense>
          </div>
        </div>
      )}
    </div>
  );
}

/** A source opened from the files list or a citation, at the cited page; closing goes back to the tab it was opened from. */
function SourceView({ taskId, path, page, from }: { taskId: string; path: string; page: number | null; from: PanelTab }) {
  const { t } = useTranslation();
  const closeSource = useArtifacts((s) => s.closeSource);
  return (
    <div className="artifacts-panel source-view" data-testid="source-view" data-path={path} data-page={page ?? undefined}>
      <div className="source-view-head">
        <button type="button" className="btn btn-small" onClick={() => closeSource(taskId)} data-testid="source-view-close">
          <Icon name="back" size={12} />
          {from === 'files' ? t('sourceView.backToFiles') : t('sourceView.back')}
        </button>
        <span className="file-name" title={path}>
          {fileName(path)}
        </span>
        {page !== null && <span className="muted">{t('preview.pageN', { number: page })}</span>}
      </div>
      <div className="artifact-preview">
        <Suspense
          fallback={
            <div className="preview-loading muted">
              <span className="spinner" />
              {t('preview.loading')}
            </div>
          }
        >
          {artifactType(path) === null ? <FileTextPreview file={{ kind: 'task', taskId, path }} testId="source-text" /> : <ArtifactPreview taskId={taskId} path={path} page={page} />}
        </Suspense>
      </div>
    </div>
  );
}

function ArtifactActions({ entry, hasPdf }: { entry: FileEntry; hasPdf: boolean }) {
  const { t } = useTranslation();
  const capabilities = useArtifacts((s) => s.capabilities);
  const exporting = useArtifacts((s) => s.exporting.includes(entry.path));
  const error = useArtifacts((s) => s.error);
  const open = useArtifacts((s) => s.open);
  const exportPdf = useArtifacts((s) => s.exportPdf);
  const dismissError = useArtifacts((s) => s.dismissError);
  const desktop = capabilities?.desktop ?? false;
  const soffice = capabilities?.soffice ?? false;
  const exportable = artifactType(entry.path) !== 'pdf';

  return (
    <div className="artifact-actions">
      <div className="artifact-buttons">
        <button
          type="button"
          className="btn btn-small btn-primary"
          onClick={() => void open(entry)}
          title={desktop ? plainT('artifacts.openHint') : plainT('artifacts.downloadHint')}
          data-testid="artifact-open"
        >
          <Icon name={desktop ? 'file' : 'download'} size={12} />
          {desktop ? t('artifacts.open') : t('artifacts.download')}
        </button>
        {desktop && (
          <button type="button" className="btn btn-small" onClick={() => void open(entry, true)} data-testid="artifact-reveal">
            {t('artifacts.reveal')}
          </button>
        )}
        {exportable && (
          <button
            type="button"
            className="btn btn-small"
            disabled={!soffice || exporting}
            onClick={() => void exportPdf(entry)}
            title={soffice ? (hasPdf ? plainT('artifacts.exportAgainHint') : plainT('artifacts.exportHint')) : plainT('artifacts.installSoffice')}
            data-testid="artifact-export-pdf"
          >
            {exporting && <span className="spinner" />}
            {exporting ? t('artifacts.exporting') : t('artifacts.exportPdf')}
          </button>
        )}
        {artifactType(entry.path) === 'deck' && (
          <button
            type="button"
            className="btn btn-small"
            disabled={!soffice || exporting}
            onClick={() => void exportPdf(entry, { notes: true })}
            title={soffice ? plainT('deckNotes.exportNotesHint') : plainT('artifacts.installSoffice')}
            data-testid="artifact-export-notes-pdf"
          >
            {t('deckNotes.exportNotesPdf')}
          </button>
        )}
      </div>
      {exportable && capabilities && !soffice && (
        <div className="artifact-hint muted" data-testid="artifact-export-hint">
          {t('artifacts.installSoffice')}
        </div>
      )}
      {error && (
        <div className="inline-error" role="alert" data-testid="artifact-error">
          <ErrorText error={error} />
          <button type="button" className="icon-btn" onClick={dismissError} aria-label={plainT('common.dismiss')}>
            <Icon name="close" size={12} />
          </button>
        </div>
      )}
    </div>
  );
}
