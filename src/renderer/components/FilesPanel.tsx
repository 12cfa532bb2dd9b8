import { type CSSProperties, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileEntry, FileKind } from '../../shared/contract';
import { listArtifacts, type PanelTab, useArtifacts } from '../state/artifacts-store';
import { useFiles } from '../state/files-store';
import { sourceFor, useSources } from '../state/sources-store';
import { useTaskLibraries } from '../state/task-libraries-store';
import { ArtifactsPanel } from './ArtifactsPanel';
import { FilePickerButton } from './FilePickerButton';
import { Icon } from './Icon';
import { ResizeHandle } from './ResizeHandle';
import { PANEL_WIDTH, useLayout } from '../state/layout-store';
import { ErrorText } from './ErrorText';
import { DropZone, FileRow, FileStatusBadge } from './FileRows';
import { focusPanelToggle, PANEL_ID, usePanelDrawer } from './use-panel-drawer';
import { TaskLibraryRows } from './TaskLibraryRows';
import { plainT } from '../i18n/plain';

const kinds: FileKind[] = ['source', 'work', 'artifact'];
const tabs: PanelTab[] = ['files', 'artifacts'];

/** Files live under `source/`, `work/` or `artifacts/`; the list already groups by kind, so it shows the rest. */
function displayName(entry: FileEntry): string {
  const slash = entry.path.indexOf('/');
  return slash === -1 ? entry.path : entry.path.slice(slash + 1);
}

/** The right-hand panel: the task's files (with source status) and its results with previews. */
export function FilesPanel({ taskId, projectId, hidden = false }: { taskId: string; projectId: string | null; hidden?: boolean }) {
  const { t } = useTranslation();
  const tab = useArtifacts((s) => s.tab);
  const setTab = useArtifacts((s) => s.setTab);
  const files = useFiles((s) => s.files);
  const load = useFiles((s) => s.load);
  const artifactCount = listArtifacts(files).length;

  const narrow = useLayout((s) => s.narrow);
  const panelWidth = useLayout((s) => s.panelWidth);
  const setPanelWidth = useLayout((s) => s.setPanelWidth);
  const togglePanel = useLayout((s) => s.togglePanel);
  const panelRef = useRef<HTMLElement>(null);
  const drawerTop = usePanelDrawer(panelRef, narrow && !hidden);
  const closePanel = () => {
    togglePanel();
    focusPanelToggle();
  };

  useEffect(() => {
    // A task opens on its results when it has some, else on its files (never an empty Results tab).
    void load(taskId).then(() => {
      if (useFiles.getState().taskId !== taskId) return;
      useArtifacts.getState().setTab(listArtifacts(useFiles.getState().files).length > 0 ? 'artifacts' : 'files');
    });
  }, [taskId, load]);

  return (
    <aside
      ref={panelRef}
      id={PANEL_ID}
      className="files-panel"
      aria-label={plainT('files.panel')}
      data-testid="files-panel"
      data-tab={tab}
      hidden={hidden}
      style={narrow && drawerTop !== null ? ({ '--drawer-top': `${drawerTop}px` } as CSSProperties) : undefined}
    >
      {!narrow && (
        <ResizeHandle
          label={plainT('layout.resizePanel')}
          edge="left"
          width={panelWidth}
          min={PANEL_WIDTH.min}
          max={PANEL_WIDTH.max}
          onResize={setPanelWidth}
          testId="panel-resize"
        />
      )}
      <div className="panel-tabs">
        <div className="panel-tablist" role="tablist" aria-label={plainT('files.panel')}>
        {tabs.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'panel-tab active' : 'panel-tab'}
            onClick={() => setTab(name)}
            data-testid={`panel-tab-${name}`}
          >
            {name === 'files' ? t('files.heading') : t('artifacts.heading')}
            {name === 'artifacts' && artifactCount > 0 && <span className="count">{artifactCount}</span>}
          </button>
        ))}
        </div>
        <span className="panel-tabs-spacer" />
        <button type="button" className="icon-btn panel-close" onClick={closePanel} aria-label={plainT('layout.hidePanel')} title={plainT('layout.hidePanel')} data-testid="panel-close">
          <Icon name="close" size={14} />
        </button>
      </div>
      {tab === 'files' ? <FilesTab taskId={taskId} projectId={projectId} /> : <ArtifactsPanel taskId={taskId} />}
    </aside>
  );
}

function FilesTab({ taskId, projectId }: { taskId: string; projectId: string | null }) {
  const { t } = useTranslation();
  const files = useFiles((s) => s.files);
  const uploading = useFiles((s) => s.uploading);
  const error = useFiles((s) => s.error);
  const upload = useFiles((s) => s.upload);
  const download = useFiles((s) => s.download);
  const showSource = useArtifacts((s) => s.showSource);
  const sources = useSources((s) => s.sources);
  const loadSources = useSources((s) => s.load);
  const libraries = useTaskLibraries((s) => s.libraries);
  const loadLibraries = useTaskLibraries((s) => s.load);
  const libraryFiles = libraries.reduce((sum, l) => sum + l.files, 0);
  const sourceKey = files
    .filter((f) => f.kind === 'source')
    .map((f) => `${f.path}:${f.sha256}`)
    .join('|');

  // A new or replaced source needs its status; unchanged lists don't restart the polling.
  useEffect(() => {
    void loadSources(taskId);
  }, [taskId, sourceKey, loadSources]);

  useEffect(() => {
    void loadLibraries(taskId, projectId);
  }, [taskId, projectId, loadLibraries]);

  return (
    <>
      <div className="panel-header panel-header-compact">
        <FilePickerButton className="btn btn-small" onPick={(picked) => void upload(taskId, picked)} disabled={uploading} testId="file-pick" inputTestId="file-input">
          <Icon name="upload" size={14} />
          {t('files.add')}
        </FilePickerButton>
      </div>
      <DropZone busy={uploading} hint={t('files.dropHint')} testId="drop-zone" />
      {error && (
        <div className="inline-error" role="alert" data-testid="files-error">
          <ErrorText error={error} />
        </div>
      )}
      <div className="file-groups">
        {kinds.map((kind) => {
          const group = files.filter((f) => f.kind === kind);
          // The sources the agent reads are the task's own and the libraries it searches.
          const shared = kind === 'source' ? libraryFiles : 0;
          return (
            <section key={kind} className="file-group" data-testid={`file-group-${kind}`}>
              <h3 className="file-group-title">
                {t(`files.kind.${kind}`)}
                <span className="count" data-testid={`file-count-${kind}`}>
                  {group.length + shared}
                </span>
              </h3>
              {group.length === 0 ? (
                shared === 0 && <div className="file-empty muted">{t(`files.empty.${kind}`)}</div>
              ) : (
                <ul className="file-list">
                  {group.map((entry) => {
                    const source = kind === 'source' ? sourceFor(sources, entry.path) : undefined;
                    return (
                      <FileRow
                        key={entry.path}
                        testId="file-item"
                        path={entry.path}
                        size={entry.size}
                        name={
                          kind === 'source' ? (
                            <button type="button" className="file-name file-open" title={plainT('files.openSource', { name: displayName(entry) })} onClick={() => showSource(taskId, entry.path)} data-testid="file-open">
                              {displayName(entry)}
                            </button>
                          ) : (
                            <span className="file-name" title={entry.path}>
                              {displayName(entry)}
                            </span>
                          )
                        }
                        badge={source && <FileStatusBadge status={source.status} pages={source.pages} message={source.message} pendingLabel={t('sources.pending')} scannedHint={plainT('sources.scannedHint')} testId="source-status" />}
                        action={
                          <button
                            type="button"
                            className="icon-btn"
                            onClick={() => void download(entry)}
                            title={plainT('files.download')}
                            aria-label={plainT('files.downloadNamed', { name: displayName(entry) })}
                            data-testid="file-download"
                          >
                            <Icon name="download" size={14} />
                          </button>
                        }
                        message={source?.status === 'error' ? { text: source.message, error: true } : null}
                        messageTitle={t('sources.unreadable')}
                      />
                    );
                  })}
                </ul>
              )}
              {kind === 'source' && <TaskLibraryRows libraries={libraries} />}
            </section>
          );
        })}
      </div>
    </>
  );
}
