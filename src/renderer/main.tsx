import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { HealthReport } from '../shared/contract/methods';
import { hasAccessToken, selectTransport } from './api/select-transport';
import { App } from './components/App';
import { NoTokenScreen } from './components/NoTokenScreen';
import { RecoveryScreen } from './components/RecoveryScreen';
import { initI18n } from './i18n';
import { getApi, setApi } from './state/api';
import { useTasks } from './state/tasks-store';

/** A damaged database is shown as one recovery screen, before the app would fail on every call. */
async function loadHealth(): Promise<HealthReport | 'unauthorized' | null> {
  try {
    return await getApi().client.getHealth({});
  } catch (err) {
    // A token the server refuses (it was restarted with another): one page that says so, not a
    // toast from every call the app makes.
    if ((err as { code?: unknown } | null)?.code === 'unauthorized') return 'unauthorized';
    // Not known (unreachable server, older core): the app starts and reports errors as usual.
    return null;
  }
}

async function start(): Promise<void> {
  setApi(selectTransport(window));
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  if (!hasAccessToken(window)) {
    // Opened from a bookmark (the app takes ?token out of the address): nothing would be allowed.
    await initI18n();
    createRoot(root).render(<NoTokenScreen reason="missing" />);
    return;
  }
  // The task list is what the window paints first: its request goes out now, beside the health
  // check, and its answer is in the store before the first render, so that render already holds
  // the rows (one render of a cold React instead of the shell, effects, then the rows).
  const tasksReady = useTasks.getState().prefetch();
  // All before the first render, none needs another: one wait instead of several in a row.
  const [health] = await Promise.all([loadHealth(), initI18n(), tasksReady]);
  const reactRoot = createRoot(root);
  const showApp = () =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  if (health === 'unauthorized') {
    reactRoot.render(<NoTokenScreen reason="refused" />);
  } else if (health?.database === 'corrupt') {
    reactRoot.render(
      <StrictMode>
        <RecoveryScreen health={health} onRestored={showApp} />
      </StrictMode>,
    );
  } else {
    showApp();
  }
}

void start();
