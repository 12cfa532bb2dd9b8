// How run events reach subscribers (transports, tests): the run manager implements it; the service
// hands it to the transports. It lives with the runs, below the service, so runs never import service.
import type { RunEvent } from '../../shared/contract';

export interface RunEventHub {
  /**
   * Delivers every event of the run with seq > afterSeq (default: all so far), before it resolves,
   * then live ones until the run ends or the resolved function is called.
   * Rejects with NotFoundError for an unknown run (asking the store may take an await).
   */
  subscribe(taskId: string, runId: string, listener: (event: RunEvent) => void, afterSeq?: number): Promise<() => void>;
}
