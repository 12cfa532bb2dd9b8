// A team worker loads its run code and runs its probes before it can hold a lease (run-warm-up.ts
// says why). The database and the cluster worker are stand-ins here: what is checked is the order
// createServiceCore does things in, which no integration test would notice going wrong.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const steps: string[] = [];
let warmUpDone: () => void = () => undefined;

vi.mock('../service/run-warm-up', () => ({
  loadRunCode: () => {
    steps.push('loadRunCode called');
    return new Promise<void>((resolve) => {
      warmUpDone = () => {
        steps.push('loadRunCode done');
        resolve();
      };
    });
  },
}));
vi.mock('../store/postgres', () => ({
  openPgStore: () => Promise.resolve({ pool: {}, close: () => Promise.resolve() }),
}));
class WorkerStarted extends Error {}
vi.mock('../cluster/worker', () => ({
  startClusterWorker: () => {
    steps.push('startClusterWorker');
    // Stops createServiceCore here: what comes after is not this test's.
    return Promise.reject(new WorkerStarted());
  },
}));

const { createServiceCore } = await import('./service-core');
const { createJsonLogger } = await import('../tenancy');
const { teamServiceConfig } = await import('./team-config.test-support');

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
  steps.length = 0;
});

describe('a team worker at start', () => {
  it('loads its run code and runs the probes before it starts the cluster worker that takes leases', async () => {
    root = mkdtempSync(join(tmpdir(), 'folio-warm-up-order-'));
    const config = teamServiceConfig(root, ['--database', 'postgres://folio@127.0.0.1:1/folio']);
    const starting = createServiceCore(config, { dataDir: root, resourcesDir: root }, createJsonLogger(() => undefined));
    const settled = starting.then(
      () => 'resolved',
      (err: unknown) => (err instanceof WorkerStarted ? 'worker started' : err),
    );
    // However long the warm-up takes, no lease can be taken before it is done.
    await vi.waitFor(() => expect(steps).toEqual(['loadRunCode called']));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(steps).toEqual(['loadRunCode called']);
    warmUpDone();
    expect(await settled).toBe('worker started');
    expect(steps).toEqual(['loadRunCode called', 'loadRunCode done', 'startClusterWorker']);
  });
});
