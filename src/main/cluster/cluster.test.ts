import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { createTestDatabase, pgSkipReason } from '../../../testing/postgres/test-database';
import type { Scope } from '../store/port';
import { Sweeper, type SweptRun } from './leases';
import { RUN_EVENTS_CHANNEL } from './run-event-writer';
import { CLUSTER_TEST_SCHEMA, StandInRunManager, streamDeltas, streamUntilCancelled } from './testing';
import { startClusterWorker, type ClusterWorker } from './worker';

const skip = pgSkipReason();
if (skip) console.warn(`skipping cluster tests: ${skip}`);

const ACME: Scope = { tenant_id: 'acme', user_id: 'ann' };
const GLOBEX: Scope = { tenant_id: 'globex', user_id: 'gus' };
let counter = 0;
const ids = () => {
  counter += 1;
  return { taskId: `t${counter}`, runId: `r${counter}` };
};

/** Collects a subscription's events; `ended` resolves at run_finished. */
function collector() {
  const events: RunEvent[] = [];
  let resolveEnd: (e: RunEvent[]) => void = () => {};
  const ended = new Promise<RunEvent[]>((resolve) => (resolveEnd = resolve));
  const listener = (e: RunEvent) => {
    events.push(e);
    if (e.type === 'run_finished') resolveEnd(events);
  };
  return { events, ended, listener };
}

function expectContiguous(events: RunEvent[], from: number, to: number): void {
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(skip !== null)('cluster: two workers on one PostgreSQL database', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let a: ClusterWorker;
  let b: ClusterWorker;
  let runsA: StandInRunManager;
  let runsB: StandInRunManager;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    // Dropping the database at the end terminates what is still connected; an idle client's
    // 'error' then must not surface as an unhandled error (the workers' pools listen the same way).
    pool.on('error', () => undefined);
    await pool.query(CLUSTER_TEST_SCHEMA);
    // Sweepers are driven by hand in the tests that need them.
    a = await startClusterWorker({ connectionString: db.url, workerId: 'a', leaseTtlMs: 3_000, sweepIntervalMs: 3_600_000 });
    b = await startClusterWorker({ connectionString: db.url, workerId: 'b', leaseTtlMs: 3_000, sweepIntervalMs: 3_600_000 });
    runsA = new StandInRunManager(a, pool);
    runsB = new StandInRunManager(b, pool);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await pool?.end();
    await db?.drop();
  });

  it('streams every event of a run on A, in order, to subscribers on B: from the start, mid-run and after the end', async () => {
    const { taskId, runId } = ids();
    const DELTAS = 3_000;
    let mid: ReturnType<typeof collector> | null = null;
    let midAfter = 0;
    const { done } = await runsA.start(ACME, taskId, runId, async (run) => {
      for (let i = 0; i < DELTAS; i++) {
        run.emit({ type: 'text_delta', delta: `d${i} ` });
        if (i === 1_000) {
          // Joins mid-run with a Last-Event-ID it already has.
          await a.writer.flush();
          midAfter = 500;
          mid = collector();
          await b.hub.subscribe(ACME, taskId, runId, mid.listener, midAfter);
        }
        if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      run.emit({ type: 'tool_call', call: { id: 'c1', name: 'read_file', arguments: '{}' }, kind: 'read' } as never);
      return 'done';
    });
    const fromStart = collector();
    await b.hub.subscribe(ACME, taskId, runId, fromStart.listener);
    expect(await done).toBe('done');
    const total = DELTAS + 3;
    const all = await fromStart.ended;
    expectContiguous(all, 1, total);
    expect(all[0].type).toBe('run_started');
    expect(all.at(-1)).toMatchObject({ type: 'run_finished', reason: 'done' });
    expect(all.filter((e) => e.type === 'text_delta').map((e) => (e as { delta: string }).delta).join('')).toBe(
      Array.from({ length: DELTAS }, (_, i) => `d${i} `).join(''),
    );
    const midway = await mid!.ended;
    expectContiguous(midway, midAfter + 1, total);

    const late = collector();
    await b.hub.subscribe(ACME, taskId, runId, late.listener, total - 10);
    expectContiguous(await late.ended, total - 9, total);
    // One that saw everything is told again that the run is over.
    const caughtUp = collector();
    await b.hub.subscribe(ACME, taskId, runId, caughtUp.listener, total);
    expect((await caughtUp.ended).map((e) => e.seq)).toEqual([total]);
    expect(b.hub.liveSubscribers).toBe(0);
  });

  it('a Last-Event-ID past what a live run has stored still gets the live events and the end', async () => {
    const { taskId, runId } = ids();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { done } = await runsA.start(ACME, taskId, runId, async (run) => {
      await gate;
      run.emit({ type: 'text_delta', delta: 'late' });
      return 'done';
    });
    await a.writer.flush();
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener, 99);
    release();
    await done;
    expect((await sub.ended).map((e) => e.type)).toEqual(['text_delta', 'run_finished']);
  });

  it('coalesces deltas: far fewer notifications than events', async () => {
    const { taskId, runId } = ids();
    const watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
    let notices = 0;
    watcher.on('notification', (msg) => {
      if (msg.payload?.includes(`"${runId}"`)) notices += 1;
    });
    await watcher.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
    const { done } = await runsA.start(ACME, taskId, runId, streamDeltas(2_000, 1_000));
    await done;
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener);
    expect((await sub.ended).length).toBe(2_002);
    await until(() => notices > 0, 'a notification');
    await watcher.end();
    expect(notices).toBeLessThan(50);
  });

  it('cancel from B reaches the run on A; B sees it end cancelled', async () => {
    const { taskId, runId } = ids();
    const { done } = await runsA.start(ACME, taskId, runId, streamUntilCancelled());
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener);
    await until(() => sub.events.length > 5, 'some deltas on B');
    expect(await b.control.cancel(ACME, taskId, runId)).toBe('forwarded');
    expect(await done).toBe('cancelled');
    expect(runsA.cancelled).toContain(runId);
    const events = await sub.ended;
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'cancelled' });
    expectContiguous(events, 1, events.length);
    // Finished: a cancel now has no owner to reach, and another tenant's cancel reaches nothing.
    expect(await b.control.cancel(ACME, taskId, runId)).toBe('not_live');
  });

  it("another tenant's cancel does not reach the run", async () => {
    const { taskId, runId } = ids();
    const { done } = await runsA.start(ACME, taskId, runId, streamUntilCancelled());
    expect(await b.control.cancel(GLOBEX, taskId, runId)).toBe('not_live');
    expect(runsA.cancelled).not.toContain(runId);
    await b.control.cancel(ACME, taskId, runId);
    expect(await done).toBe('cancelled');
  });

  it('an approval decided on B reaches the run waiting on A', async () => {
    const { taskId, runId } = ids();
    let asked!: () => void;
    const asking = new Promise<void>((resolve) => (asked = resolve));
    const { done } = await runsA.start(ACME, taskId, runId, async (run) => {
      const waiting = run.wait('call-1');
      asked();
      const d = await waiting;
      run.emit({ type: 'approval_resolved', call_id: 'call-1', decision: d.decision } as never);
      return 'done';
    });
    await asking;
    await until(async () => (await b.control.decide(ACME, taskId, 'call-1', { decision: 'allow_once' })) === 'forwarded', 'the decision forwarded');
    expect(await done).toBe('done');
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener);
    expect((await sub.ended).find((e) => e.type === 'approval_resolved')).toMatchObject({ decision: 'allow_once' });
    // Taken by the run: not left for another.
    expect(await b.control.takeDecision(ACME, taskId, 'call-1')).toBeUndefined();
  });

  it('a decision given while no run of the task is live is kept for the next run, on any worker', async () => {
    const { taskId, runId } = ids();
    expect(await a.control.decide(ACME, taskId, 'call-9', { decision: 'deny', reason: 'no' })).toBe('stored');
    expect(await b.control.takeDecision(GLOBEX, taskId, 'call-9')).toBeUndefined();
    const { done } = await runsB.start(ACME, taskId, runId, async (run) => ((await run.wait('call-9')).decision === 'deny' ? 'done' : 'error'));
    expect(await done).toBe('done');
  });

  it("subscribing to another tenant's run, an unknown run or the wrong task is NotFound", async () => {
    const { taskId, runId } = ids();
    await (await runsA.start(ACME, taskId, runId, streamDeltas(10))).done;
    const none = () => {};
    await expect(b.hub.subscribe(GLOBEX, taskId, runId, none)).rejects.toMatchObject({ code: 'not_found' });
    await expect(b.hub.subscribe(ACME, taskId, 'r_missing', none)).rejects.toMatchObject({ code: 'not_found' });
    await expect(b.hub.subscribe(ACME, 't_other', runId, none)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a subscriber whose LISTEN connection drops re-reads from its seq: nothing lost or repeated', async () => {
    const { taskId, runId } = ids();
    const { done } = await runsA.start(ACME, taskId, runId, async (run) => {
      for (let i = 0; i < 400; i++) {
        run.emit({ type: 'text_delta', delta: 'x' });
        if (i === 100) b.listener.breakConnection();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return 'done';
    });
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener);
    await done;
    expectContiguous(await sub.ended, 1, 402);
  });

  it('drain hands runs back: they end interrupted, leases are released, no new run is taken', async () => {
    const c = await startClusterWorker({ connectionString: db.url, workerId: 'c', leaseTtlMs: 3_000, sweepIntervalMs: 3_600_000 });
    const runsC = new StandInRunManager(c, pool);
    const { taskId, runId } = ids();
    const { done } = await runsC.start(ACME, taskId, runId, streamUntilCancelled());
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener);
    await until(() => sub.events.length > 3, 'some deltas');
    await c.leases.markDraining();
    await expect(c.runStarted({ scope: ACME, ...ids() })).rejects.toMatchObject({ code: 'unavailable' });
    await c.drain();
    expect(await done).toBe('interrupted');
    const { rows } = await pool.query<{ status: string }>('SELECT status FROM runs WHERE id = $1', [runId]);
    expect(rows[0].status).toBe('interrupted');
    expect((await pool.query('SELECT 1 FROM run_leases WHERE worker_id = $1', ['c'])).rowCount).toBe(0);
    expect((await pool.query('SELECT 1 FROM workers WHERE id = $1', ['c'])).rowCount).toBe(0);
    expect((await sub.ended).at(-1)).toMatchObject({ type: 'run_finished' });
  });

  it('a worker that missed its renewals loses the run: swept once, then stopped where it ran', async () => {
    const z = await startClusterWorker({ connectionString: db.url, workerId: 'z', leaseTtlMs: 300, sweepIntervalMs: 3_600_000 });
    const runsZ = new StandInRunManager(z, pool);
    const { taskId, runId } = ids();
    const { done } = await runsZ.start(ACME, taskId, runId, streamUntilCancelled());
    // A long pause (GC, a partition): no renewals until the lease has expired and been swept.
    z.leases.stop();
    const swept: SweptRun[] = [];
    await until(async () => {
      swept.push(...(await b.sweeper.sweep()).filter((s) => s.runId === runId));
      return swept.length > 0;
    }, 'the lease to expire and be swept');
    await z.leases.heartbeat();
    expect(runsZ.cancelled).toContain(runId);
    await done;
    await z.writer.flush();
    const { rows } = await pool.query<{ status: string }>('SELECT status FROM runs WHERE id = $1', [runId]);
    expect(rows[0].status).toBe('interrupted');
    // Events the run wrote after the sweep do not change how it ended for subscribers.
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener);
    const events = await sub.ended;
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'error' });
    expect(events.filter((e) => e.type === 'run_finished')).toHaveLength(1);
    await z.close();
  });

  it('a hole in a run\'s stored events (a batch dropped at a shutdown) is stepped over, so subscribers still reach the end', async () => {
    const { taskId, runId } = ids();
    await pool.query('INSERT INTO tasks (id, tenant_id) VALUES ($1, $2)', [taskId, ACME.tenant_id]);
    await pool.query(`INSERT INTO runs (id, task_id, status, started_at) VALUES ($1, $2, 'running', $3)`, [runId, taskId, Date.now()]);
    const event = (seq: number, body: Record<string, unknown>) => JSON.stringify({ run_id: runId, task_id: taskId, seq, at: seq, ...body });
    const insert = (seq: number, body: Record<string, unknown>) =>
      pool.query('INSERT INTO run_events (run_id, seq, last_seq, tenant_id, task_id, events, ended) VALUES ($1, $2, $2, $3, $4, $5, $6)', [
        runId,
        seq,
        ACME.tenant_id,
        taskId,
        `[${event(seq, body)}]`,
        body.type === 'run_finished',
      ]);
    await insert(1, { type: 'run_started', model: null, resumed: false });
    await insert(2, { type: 'text_delta', delta: 'a' });
    // seq 3 and 4 were never stored.
    await insert(5, { type: 'text_delta', delta: 'b' });
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener);
    await insert(6, { type: 'run_finished', reason: 'error', duration_ms: 1 });
    await pool.query('SELECT pg_notify($1, $2)', [RUN_EVENTS_CHANNEL, JSON.stringify({ run_id: runId, seq: 6 })]);
    expect((await sub.ended).map((e) => e.seq)).toEqual([1, 2, 5, 6]);
    await until(() => b.hub.liveSubscribers === 0, 'the feed to close');
  });

  it('a run left running with no lease (its worker died before taking one) is swept after two ttl', async () => {
    const { taskId, runId } = ids();
    await pool.query('INSERT INTO tasks (id, tenant_id) VALUES ($1, $2)', [taskId, ACME.tenant_id]);
    await pool.query(`INSERT INTO runs (id, task_id, status, started_at) VALUES ($1, $2, 'running', $3)`, [runId, taskId, Date.now() - 60_000]);
    const sub = collector();
    await b.hub.subscribe(ACME, taskId, runId, sub.listener);
    expect((await new Sweeper(pool, { orphanAfterMs: 6_000 }).sweep()).map((s) => s.runId)).toContain(runId);
    expect(await sub.ended).toEqual([expect.objectContaining({ type: 'run_finished', reason: 'error', seq: 1 })]);
  });

  describe('a worker killed with SIGKILL', () => {
    let child: ReturnType<typeof spawn> | null = null;
    afterEach(() => child?.kill('SIGKILL'));

    it('its run is marked interrupted exactly once by racing sweepers, and B is told it ended', async () => {
      const { taskId, runId } = ids();
      await pool.query('INSERT INTO tasks (id, tenant_id) VALUES ($1, $2)', [taskId, ACME.tenant_id]);
      const script = path.join(import.meta.dirname, 'crash-worker.fixture.ts');
      const projectRoot = path.resolve(import.meta.dirname, '../../..');
      const proc = spawn(process.execPath, ['--import', 'tsx', script, db.url, ACME.tenant_id, taskId, runId, '1500'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        proc.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) resolve();
        });
        proc.on('exit', () => reject(new Error(`fixture exited early: ${stderr}`)));
      });
      const sub = collector();
      await b.hub.subscribe(ACME, taskId, runId, sub.listener);
      proc.kill('SIGKILL');
      await new Promise((resolve) => proc.once('exit', resolve));
      // Four sweepers race on two pools: A's and B's, and two more on the test's pool.
      const sweepers = [a.sweeper, b.sweeper, new Sweeper(pool), new Sweeper(pool)];
      const sweepAll = async () => (await Promise.all(sweepers.map((s) => s.sweep()))).flat().filter((s) => s.runId === runId);
      // Before the ttl the lease is alive: nothing is swept.
      expect(await sweepAll()).toEqual([]);
      const swept: SweptRun[] = [];
      await until(async () => {
        swept.push(...(await sweepAll()));
        return (await pool.query('SELECT 1 FROM run_leases WHERE run_id = $1', [runId])).rowCount === 0;
      }, 'the lease to be swept');
      swept.push(...(await sweepAll()));
      expect(swept.map((s) => s.runId)).toEqual([runId]);
      const { rows } = await pool.query<{ status: string }>('SELECT status FROM runs WHERE id = $1', [runId]);
      expect(rows[0].status).toBe('interrupted');
      const { rows: ends } = await pool.query('SELECT seq FROM run_events WHERE run_id = $1 AND ended', [runId]);
      expect(ends).toHaveLength(1);
      const events = await sub.ended;
      expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'error' });
      expectContiguous(events, 1, events.length);
    });
  });
});
