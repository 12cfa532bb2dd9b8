import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { HealthReport } from '../shared/contract/methods';
import { selectTransport } from './api/select-transport';
import { App } from './components/App';
import { RecoveryScreen } from './components/RecoveryScreen';
import { initI18n } from './i18n';
import { getApi, setApi } from './state/api';
import { useTasks } from './state/tasks-store';

/** A damaged database is shown as one recovery screen, before the app would fail on every call. */
async function loadHealth(): Promise<HealthReport | null> {
  try {
    return await getApi().client.getHealth({});
  } catch {
    // Not known (unreachable server, older core): the app starts and reports errors as usual.
    return null;
  }
}

async function start(): Promise<void> {
  setApi(selectTransport(window));
  // The task list is what the window paints first: its request goes out now, beside the health
  // check, and its answer is in the store before the first render, so that render already holds
  // the rows (one render of a cold React instead of the shell, effects, then the rows).
  const tasksReady = useTasks.getState().prefetch();
  // All before the first render, none needs another: one wait instead of several in a row.
  const [health] = await Promise.all([loadHealth(), initI18n(), tasksReady]);
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  const reactRoot = createRoot(root);
  const showApp = () =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  if (health?.database === 'corrupt') {
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
