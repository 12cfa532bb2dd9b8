// Graceful shutdown of a worker in a cluster (issue 16): it hands its runs back instead of letting
// their leases time out. It stops taking runs, ends its live runs `interrupted` as the desktop's
// shutdown does (so Continue, on any worker, resumes them), stores their last events, and releases
// their leases so no sweeper has to wait out the ttl.
import type { RunHost } from './host';
import type { Leases } from './leases';
import type { RunEventWriter } from './run-event-log';

export interface DrainParts {
  leases: Leases;
  writer: RunEventWriter;
  host: RunHost | null;
}

export async function drain({ leases, writer, host }: DrainParts): Promise<void> {
  await leases.markDraining();
  await host?.shutdown();
  await writer.flush();
  await leases.releaseAll();
  await leases.leave();
}
