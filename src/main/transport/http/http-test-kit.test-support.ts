// Test support: a real server on 127.0.0.1 (random port) around the fake core, and two clients:
// `api` (fetch, with the token) and `raw` (node:http, for exact paths and Host headers that fetch
// would normalize or refuse to send).
import { request } from 'node:http';
import { type FakeCore, createFakeCore } from '../fake-core.test-support';
import { type RunningHttpServer, type StartHttpServerOptions, startHttpServer } from './index';

export const TEST_TOKEN = 'test-token-0123456789abcdef';

export interface TestServer extends RunningHttpServer {
  core: FakeCore;
  internalErrors: unknown[];
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  raw(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse>;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export async function startTestServer(opts: Partial<StartHttpServerOptions> = {}): Promise<TestServer> {
  const core = createFakeCore();
  const internalErrors: unknown[] = [];
  const running = await startHttpServer(core, {
    token: TEST_TOKEN,
    onInternalError: (_where, error) => internalErrors.push(error),
    ...opts,
  });
  return {
    ...running,
    core,
    internalErrors,
    api(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${TEST_TOKEN}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(`${running.url}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    raw(path, init = {}) {
      return new Promise((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: running.port, path, method: init.method ?? 'GET', headers: init.headers },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(init.body);
      });
    },
  };
}

export async function errorOf(res: Response): Promise<{ name: string; code: string; message: string }> {
  const body = (await res.json()) as { error: { name: string; code: string; message: string } };
  return body.error;
}
