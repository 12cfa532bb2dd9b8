// The desktop window, locked down: isolated and sandboxed renderer, no Node, a strict CSP,
// no navigation or new windows, every permission request denied, external links only http(s)
// and only through the system browser.
import { BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function isSafeExternalUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function createMainWindow(opts: { preloadPath: string; rendererDir: string; devUrl?: string }): BrowserWindow {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Folio',
    webPreferences: {
      preload: opts.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    event.preventDefault();
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());

  if (opts.devUrl) void win.loadURL(opts.devUrl);
  else void win.loadFile(join(opts.rendererDir, 'index.html'));
  return win;
}

/**
 * The dev server's URL, honoured only in an unpackaged app: in a packaged one the variable could
 * point the window (and its trusted IPC bridge) at any page.
 */
export function rendererDevUrl(isPackaged: boolean, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (isPackaged) return undefined;
  const url = env.ELECTRON_RENDERER_URL;
  return url === undefined || url === '' ? undefined : url;
}

/** The only frames allowed to call main: our own renderer's index.html, or the dev server's origin. */
export function isTrustedFrameUrl(url: string, opts: { rendererIndexUrl: string; devUrl?: string }): boolean {
  try {
    const parsed = new URL(url);
    if (opts.devUrl) return parsed.origin === new URL(opts.devUrl).origin;
    parsed.hash = '';
    parsed.search = '';
    return parsed.href === opts.rendererIndexUrl;
  } catch {
    return false;
  }
}
