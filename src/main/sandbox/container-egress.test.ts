// The egress allowlist on a real engine (podman in CI), as docs/deploy.md sets it up: an internal
// network with no route out, and a forward proxy (here a small one in the test, allowing one host
// name) as its only way out. A program of a task allowed the network reaches the allowed host through
// the proxy, is refused another, and cannot go around the proxy; a task without the network reaches
// nothing, not even the proxy. Skips, naming what is missing, without podman (or docker) and the
// tools image (deploy/container/build-image.sh); CI has both.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realContainerEngine } from './container-engine.test-support';
import { ContainerExecutor } from './container-executor';
import type { ExecOptions } from './executor';

const engine = realContainerEngine();
if (engine.skip !== null) console.warn(`container egress tests skipped: ${engine.skip}`);

const ALLOWED_HOST = 'allowed.test';

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

/** A forward proxy that lets through requests for ALLOWED_HOST only (to `target`), as squid's dstdomain acl would. */
function allowlistProxy(targetPort: number): { server: http.Server; seen: string[] } {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://invalid');
    seen.push(url.hostname);
    if (url.hostname !== ALLOWED_HOST) {
      res.writeHead(403).end('blocked by the egress allowlist');
      return;
    }
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, path: url.pathname, method: req.method, headers: { host: url.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  // Tunnels (HTTPS) are refused whatever the host: this proxy has no allowed TLS host.
  server.on('connect', (_req, socket: Socket) => socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'));
  return { server, seen };
}

/** An address of this machine outside the engine's networks, where a listener waits: the way around the proxy. */
function hostAddress(): string | null {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('10.88.') && !a.address.startsWith('10.89.')) return a.address;
  }
  return null;
}

describe.skipIf(engine.skip !== null)('container executor: an egress allowlist on a real engine', () => {
  const network = `folio-egress-test-${process.pid}`;
  const target = http.createServer((req, res) => res.end(`target says hi to ${req.headers.host}${req.url}`));
  let proxy: ReturnType<typeof allowlistProxy>;
  let executor: ContainerExecutor;
  let root: string;
  let targetPort = 0;
  let direct: string | null = null;

  beforeAll(async () => {
    const created = spawnSync(engine.runtime, ['network', 'create', '--internal', network], { encoding: 'utf8' });
    expect(created.status, created.stderr).toBe(0);
    const inspected = spawnSync(engine.runtime, ['network', 'inspect', '--format', '{{range .Subnets}}{{.Gateway}}{{end}}', network], { encoding: 'utf8' });
    const gateway = inspected.stdout.trim();
    expect(gateway, inspected.stderr).toMatch(/^\d+\.\d+\.\d+\.\d+$/u);
    // The target listens everywhere, so the only thing between the container and it is the network.
    targetPort = await listen(target, '0.0.0.0');
    proxy = allowlistProxy(targetPort);
    const proxyPort = await listen(proxy.server, '0.0.0.0');
    const address = hostAddress();
    direct = address === null ? null : `http://${address}:${targetPort}/direct`;
    executor = new ContainerExecutor({ ...engine.options, egress: { network, proxyUrl: `http://${gateway}:${proxyPort}` } });
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-egress-'));
  }, 60_000);

  afterAll(async () => {
    await executor?.close();
    spawnSync(engine.runtime, ['network', 'rm', '--force', network], { stdio: 'ignore' });
    target.close();
    proxy?.server.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const options = (taskId: string, network: ExecOptions['network']): ExecOptions => ({ taskId, root, cwd: root, env: {}, network, timeoutMs: 60_000 });
  /** A Python program that fetches each URL (through the proxy the environment names, unless `bypass`) and prints what came back. */
  const fetchAll = (urls: { url: string; bypass?: boolean }[]) => [
    'python3',
    '-c',
    [
      'import json, sys, urllib.request, urllib.error',
      `for item in json.loads(${JSON.stringify(JSON.stringify(urls))}):`,
      "    opener = urllib.request.build_opener(urllib.request.ProxyHandler({})) if item.get('bypass') else urllib.request.build_opener()",
      '    try:',
      "        print(item['url'], 'OK', opener.open(item['url'], timeout=5).read().decode())",
      '    except urllib.error.HTTPError as e:',
      "        print(item['url'], 'HTTP', e.code)",
      '    except Exception as e:',
      "        print(item['url'], 'FAIL', type(e).__name__)",
    ].join('\n'),
  ];

  it('is ready: the egress network is internal', () => {
    expect(executor.status()).toMatchObject({ active: true });
  });

  it('reaches the allowed host through the proxy, is refused another, and cannot go around the proxy', async () => {
    const urls = [{ url: `http://${ALLOWED_HOST}/report` }, { url: 'http://not-allowed.test/leak' }, ...(direct ? [{ url: direct, bypass: true }] : [])];
    const result = await executor.run(fetchAll(urls), options('task-egress', { allow: [ALLOWED_HOST] }));
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toContain(`http://${ALLOWED_HOST}/report OK target says hi to ${ALLOWED_HOST}/report`);
    expect(result.output).toContain('http://not-allowed.test/leak HTTP 403');
    if (direct) expect(result.output).toMatch(new RegExp(`${direct.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&')} FAIL`, 'u'));
    expect(proxy.seen).toEqual([ALLOWED_HOST, 'not-allowed.test']);
  }, 120_000);

  it('gives a task without the network nothing, not even the proxy', async () => {
    const before = proxy.seen.length;
    const result = await executor.run(fetchAll([{ url: `http://${ALLOWED_HOST}/report` }]), options('task-offline', 'none'));
    expect(result.output).toContain(`http://${ALLOWED_HOST}/report FAIL`);
    expect(proxy.seen.length).toBe(before);
  }, 120_000);
});
