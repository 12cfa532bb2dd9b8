import { type CSSProperties, lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../state/app-store';
import { rememberedTaskId, useTasks } from '../state/tasks-store';
import { useUsage } from '../state/usage-store';
import { useProjects } from '../state/projects-store';
import { PERSONAL_LIBRARY } from '../../shared/contract/library-id';
import { DropOverlay } from './DropOverlay';
import { Notices } from './Notices';
import { useSetup } from '../state/setup-store';
import { Sidebar } from './Sidebar';
import { panelShown, useLayout } from '../state/layout-store';
import { useGlobalShortcuts } from './use-global-shortcuts';
import { ShortcutsHelp } from './ShortcutsHelp';
import { currentLanguage, i18n, languageLoaders } from '../i18n';

// The first chunk holds only what paints the task list; the views behind a click (a task's chat and
// files, Settings, the setup) load on first use, so their markdown, virtual list, drag-and-drop and
// forms don't delay the sidebar (bench/renderer.bench.ts measures both).
// The announcer reads the chat store, whose run events carry the contract's schemas: loaded after the
// first paint like the views, so the first chunk stays without zod.
const RunAnnouncer = lazy(() => import('./RunAnnouncer').then((m) => ({ default: m.RunAnnouncer })));
const ChatView = lazy(() => import('./ChatView').then((m) => ({ default: m.ChatView })));
const FilesPanel = lazy(() => import('./FilesPanel').then((m) => ({ default: m.FilesPanel })));
// Settings and setup show a probe's findings: their strings load with them.
const lateStrings = () => import('../i18n/late-strings').then((m) => m.ensureLateStrings({ i18n, languageLoaders, currentLanguage }));
const SettingsPage = lazy(() => Promise.all([import('./settings/SettingsPage'), lateStrings()]).then(([m]) => ({ default: m.SettingsPage })));
const ProjectPage = lazy(() => import('./ProjectPage').then((m) => ({ default: m.ProjectPage })));
const SetupScreen = lazy(() => Promise.all([import('./SetupScreen'), lateStrings()]).then(([m]) => ({ default: m.SetupScreen })));

/** Shown for the moment a view's chunk is on its way. */
function ViewLoading() {
  const { t } = useTranslation();
  return (
    <main className="welcome" aria-busy="true">
      <p className="muted">{t('common.loading')}</p>
    </main>
  );
}

export function App() {
  const { t } = useTranslation();
  const view = useApp((s) => s.view);
  const current = useTasks((s) => s.current);
  const currentTaskId = useTasks((s) => s.currentTaskId);
  const projectPage = useProjects((s) => s.page);
  const pageProjectName = useProjects((s) => s.projects.find((p) => p.id === s.page)?.name);
  const layout = useLayout();
  useGlobalShortcuts();

  useEffect(() => {
    // The task list first: it is what the window paints first, and the server answers in order.
    const remembered = rememberedTaskId();
    void useTasks
      .getState()
      .load()
      .then(() => {
        if (remembered) useTasks.getState().select(remembered);
      });
    const app = useApp.getState();
    void app.loadSettings();
    void app.loadModels();
    void useUsage.getState().load();
    // A first run without a usable model starts in the setup (first-run).
    void useSetup.getState().load({ atStart: true });
    void useProjects.getState().load();
  }, []);

  const showSettings = view === 'settings';
  const showProject = view === 'project';
  // On a library's page, dropped files go to that library.
  const libraryName = showProject ? (projectPage === PERSONAL_LIBRARY ? t('library.personal') : pageProjectName) : undefined;

  const classes = ['app'];
  if (showSettings || showProject || view === 'setup') classes.push('app-settings');
  if (!layout.sidebarOpen) classes.push('sidebar-collapsed');
  const showPanel = panelShown(layout);
  if (!showPanel) classes.push('panel-closed');
  else if (layout.narrow) classes.push('panel-drawer');
  // A width the person dragged to wins over the stylesheet's (which widens the panel for results).
  const widths = {
    ...(layout.sidebarWidth !== null && layout.sidebarOpen ? { '--sidebar-w': `${layout.sidebarWidth}px` } : {}),
    ...(layout.panelWidth !== null && !layout.narrow ? { '--files-w': `${layout.panelWidth}px` } : {}),
  } as CSSProperties;

  return (
    <div className={classes.join(' ')} style={widths} data-testid="app">
      <Sidebar />
      {showSettings ? (
        <Suspense fallback={<ViewLoading />}>
          <SettingsPage />
        </Suspense>
      ) : showProject ? (
        <Suspense fallback={<ViewLoading />}>
          <ProjectPage />
        </Suspense>
      ) : view === 'setup' ? (
        <Suspense fallback={<ViewLoading />}>
          <SetupScreen />
        </Suspense>
      ) : current ? (
        <Suspense fallback={<ViewLoading />}>
          <ChatView task={current} />
          {/* Mounted while hidden: crossing the narrow width or closing the drawer keeps what the
              panel holds (a slide selection, a half-typed change). */}
          <FilesPanel taskId={current.id} projectId={current.project_id} hidden={!showPanel} />
        </Suspense>
      ) : (
        <main className="welcome" data-testid="welcome">
          <div className="welcome-card">
            <h1>{currentTaskId ? t('common.loading') : t('welcome.title')}</h1>
            <p className="muted">{t('welcome.body')}</p>
          </div>
        </main>
      )}
      <DropOverlay taskId={current?.id ?? null} taskTitle={current?.title.trim() || t('tasks.untitled')} libraryName={libraryName} />
      <Notices />
      <Suspense fallback={null}>
        <RunAnnouncer />
      </Suspense>
      {layout.shortcutsOpen && <ShortcutsHelp />}
    </div>
  );
}
