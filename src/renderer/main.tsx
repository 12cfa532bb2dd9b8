import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { selectTransport } from './api/select-transport';
import { App } from './components/App';
import { initI18n } from './i18n';
import { setApi } from './state/api';

async function start(): Promise<void> {
  setApi(selectTransport(window));
  await initI18n();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
