// A worker process for cluster.test.ts: starts a run that streams until killed, holding its lease
// with a short ttl, and prints "ready <seq>" once some events are stored. The test SIGKILLs it.
// Usage: node --import tsx crash-worker.fixture.ts <url> <tenant> <task> <run> <ttlMs>
import pg from 'pg';
import { streamUntilCancelled, StandInRunManager } from './testing';
import { startClusterWorker } from './worker';

const [url, tenant, taskId, runId, ttl] = process.argv.slice(2);
const worker = await startClusterWorker({ connectionString: url, workerId: 'doomed', leaseTtlMs: Number(ttl), sweepIntervalMs: 60_000 });
const pool = new pg.Pool({ connectionString: url, max: 2 });
const runs = new StandInRunManager(worker, pool);
await runs.start({ tenant_id: tenant, user_id: 'u' }, taskId, runId, streamUntilCancelled(2));
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  await worker.writer.flush();
  const { rows } = await pool.query<{ n: number }>('SELECT coalesce(max(last_seq), 0)::int AS n FROM run_events WHERE run_id = $1', [runId]);
  if (rows[0].n >= 20) {
    process.stdout.write(`ready ${rows[0].n}\n`);
    break;
  }
}
