// The Electron composition root: the only place (with src/main/electron/) that imports electron.
// Everything it wires is plain Node and is tested without Electron.
import { app, safeStorage, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveDataDir } from './config/app-paths';
import { createFileKeyStore } from './models';
import { createRecoverableCore, type RecoverableCore } from './service/recovery-core';
import { registerIpc } from './electron/ipc';
import { createMainWindow, isTrustedFrameUrl, rendererDevUrl } from './electron/window';

let core: RecoverableCore | undefined;
const here = dirname(fileURLToPath(import.meta.url));

async function start(): Promise<void> {
  // One Folio per data folder: a second launch focuses the first instead of sharing the database.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  const resourcesDir = app.getAppPath();
  const dataDir = resolveDataDir(app.isPackaged ? app.getPath('userData') : join(resourcesDir, 'workspace'));
  // Keys entered in Settings are encrypted with the OS keychain where Electron offers it.
  const codec = safeStorage.isEncryptionAvailable()
    ? {
        encode: (s: string) => safeStorage.encryptString(s).toString('base64'),
        decode: (s: string) => safeStorage.decryptString(Buffer.from(s, 'base64')),
      }
    : undefined;
  // A damaged database starts the window on the recovery screen instead of failing every call.
  core = await createRecoverableCore({
    dataDir,
    resourcesDir,
    keys: createFileKeyStore(dataDir, codec),
    desktop: { openPath: (p) => shell.openPath(p), showItemInFolder: (p) => shell.showItemInFolder(p) },
    prewarmExtraction: true,
    warmMachineProbes: true,
  });
  const devUrl = rendererDevUrl(app.isPackaged);
  const win = createMainWindow({
    preloadPath: join(here, '../preload/index.cjs'),
    rendererDir: join(here, '../renderer'),
    devUrl,
  });
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  const rendererIndexUrl = pathToFileURL(join(here, '../renderer/index.html')).href;
  registerIpc(core, win, { isTrustedSender: (url) => isTrustedFrameUrl(url, { rendererIndexUrl, devUrl }) });
}

app.on('window-all-closed', () => {
  void (core?.close() ?? Promise.resolve()).finally(() => app.quit());
});

void start();
