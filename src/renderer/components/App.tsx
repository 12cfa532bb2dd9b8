import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../state/app-store';
import { rememberedTaskId, useTasks } from '../state/tasks-store';
import { useUsage } from '../state/usage-store';
import { ChatView } from './ChatView';
import { DropOverlay } from './DropOverlay';
import { FilesPanel } from './FilesPanel';
import { Notices } from './Notices';
import { SettingsPage } from './SettingsPage';
import { SetupScreen } from './SetupScreen';
import { useSetup } from '../state/setup-store';
import { Sidebar } from './Sidebar';

export function App() {
  const { t } = useTranslation();
  const view = useApp((s) => s.view);
  const current = useTasks((s) => s.current);
  const currentTaskId = useTasks((s) => s.currentTaskId);

  useEffect(() => {
    const app = useApp.getState();
    void app.loadSettings();
    void app.loadModels();
    void useUsage.getState().load();
    // A first run without a usable model starts in the setup (first-run).
    void useSetup.getState().load({ atStart: true });
    const remembered = rememberedTaskId();
    void useTasks
      .getState()
      .load()
      .then(() => {
        if (remembered) useTasks.getState().select(remembered);
      });
  }, []);

  const showSettings = view === 'settings';

  return (
    <div className={showSettings || view === 'setup' ? 'app app-settings' : 'app'} data-testid="app">
      <Sidebar />
      {showSettings ? (
        <SettingsPage />
      ) : view === 'setup' ? (
        <SetupScreen />
      ) : current ? (
        <>
          <ChatView task={current} />
          <FilesPanel taskId={current.id} />
        </>
      ) : (
        <main className="welcome" data-testid="welcome">
          <div className="welcome-card">
            <h1>{currentTaskId ? t('common.loading') : t('welcome.title')}</h1>
            <p className="muted">{t('welcome.body')}</p>
          </div>
        </main>
      )}
      <DropOverlay taskId={current?.id ?? null} taskTitle={current?.title.trim() || t('tasks.untitled')} />
      <Notices />
    </div>
  );
}
