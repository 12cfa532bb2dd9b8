// Graceful shutdown of a worker in a cluster: it hands its runs back instead of letting
// their leases time out. It stops taking runs, ends its live runs `interrupted` as the desktop's
// shutdown does (so Continue, on any worker, resumes them), stores their last events, and releases
// their leases so no sweeper has to wait out the ttl.
import type { RunHost } from './host';
import type { Leases } from './leases';
import type { RunEventWriter } from './run-event-writer';

export interface DrainParts {
  leases: Leases;
  writer: RunEventWriter;
  host: RunHost | null;
}

/** How long the drain's event writes are retried when the database fails, before they are dropped. */
const DRAIN_WRITE_GRACE_MS = 10_000;

export async function drain({ leases, writer, host }: DrainParts): Promise<void> {
  // Each run's end waits for its events to be stored: with the database gone that wait must end.
  writer.stopRetryingAfter(DRAIN_WRITE_GRACE_MS);
  await leases.markDraining();
  await host?.shutdown();
  await writer.flush();
  await leases.releaseAll();
  await leases.leave();
}
