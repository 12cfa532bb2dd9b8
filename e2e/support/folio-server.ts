// Starts and stops `folio serve` for the tests. Module state is per Playwright worker, so a test
// can restart the server (same data dir, same port) and the page reconnects to it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, repoRoot, sleep, type Started, startProcess, stopProcess } from './processes';

// The server refuses tokens shorter than 16 characters.
export const E2E_TOKEN = 'e2e-token-0123456789';

export interface FolioServer {
  port: number;
  /** Origin, e.g. http://127.0.0.1:41234 */
  origin: string;
  /** The URL a person would open: the origin with the token in the query. */
  appUrl: string;
  dataDir: string;
  token: string;
}

let current: { server: FolioServer; started: Started } | null = null;

/** The built CLI by default; FOLIO_E2E_CLI may name another entry (a .ts one runs through tsx). */
export function folioCli(): string {
  return process.env.FOLIO_E2E_CLI ?? join(repoRoot, 'out/main/cli.js');
}

function cliArgs(): string[] {
  const cli = folioCli();
  return cli.endsWith('.ts') ? ['--import', 'tsx', cli] : [cli];
}

async function waitUntilServing(server: FolioServer, started: Started, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`folio serve exited with code ${started.child.exitCode}. Output:\n${started.output()}`);
    try {
      const response = await fetch(`${server.origin}/v1/settings`, { headers: { Authorization: `Bearer ${server.token}` } });
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (err) {
      lastError = String(err);
    }
    await sleep(150);
  }
  throw new Error(`folio serve did not answer on ${server.origin} within ${timeoutMs} ms (${lastError}). Output:\n${started.output()}`);
}

export async function startFolio(dataDir: string, port?: number): Promise<FolioServer> {
  if (current) throw new Error('startFolio: a Folio server is already running in this worker; stop it first.');
  if (!existsSync(folioCli())) throw new Error(`${folioCli()} is missing: run \`npm run build\` before the e2e tests.`);
  const chosenPort = port ?? (await freePort());
  const server: FolioServer = {
    port: chosenPort,
    origin: `http://127.0.0.1:${chosenPort}`,
    appUrl: `http://127.0.0.1:${chosenPort}/?token=${E2E_TOKEN}`,
    dataDir,
    token: E2E_TOKEN,
  };
  const started = startProcess(process.execPath, [...cliArgs(), 'serve', '--port', String(chosenPort)], {
    ...process.env,
    FOLIO_DATA_DIR: dataDir,
    FOLIO_TOKEN: E2E_TOKEN,
    FAKE_API_KEY: 'x',
  });
  try {
    await waitUntilServing(server, started, 30_000);
  } catch (err) {
    await stopProcess(started.child);
    throw err;
  }
  current = { server, started };
  return server;
}

export async function stopFolio(): Promise<void> {
  if (!current) return;
  const { started } = current;
  current = null;
  await stopProcess(started.child);
}

/** Calls the server's /v1 API directly, for setup and cleanup that isn't what a test is about. */
export async function folioApi(server: FolioServer, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers: { Authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} failed: HTTP ${response.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

// ---- first run (first-run): a second Folio beside the worker's, with its own data and environment ----

/**
 * Starts `folio serve` on its own data folder and environment (e.g. without any *_API_KEY), apart from
 * the worker's shared server, so a spec can see what a person with nothing set up sees.
 */
export async function startIsolatedFolio(dataDir: string, env: NodeJS.ProcessEnv): Promise<FolioServer & { stop: () => Promise<void> }> {
  if (!existsSync(folioCli())) throw new Error(`${folioCli()} is missing: run \`npm run build\` before the e2e tests.`);
  const port = await freePort();
  const server: FolioServer = { port, origin: `http://127.0.0.1:${port}`, appUrl: `http://127.0.0.1:${port}/?token=${E2E_TOKEN}`, dataDir, token: E2E_TOKEN };
  const started = startProcess(process.execPath, [...cliArgs(), 'serve', '--port', String(port)], { ...env, FOLIO_DATA_DIR: dataDir, FOLIO_TOKEN: E2E_TOKEN });
  try {
    await waitUntilServing(server, started, 30_000);
  } catch (err) {
    await stopProcess(started.child);
    throw err;
  }
  return { ...server, stop: () => stopProcess(started.child) };
}
