// How run events reach subscribers (transports, tests): the run manager implements it; the service
// hands it to the transports. It lives with the runs, below the service, so runs never import service.
import type { RunEvent } from '../../shared/contract';

export interface RunEventHub {
  /**
   * Delivers every event of the run with seq > afterSeq (default: all so far), synchronously,
   * then live ones until the run ends or the returned function is called.
   * Throws NotFoundError for an unknown run.
   */
  subscribe(taskId: string, runId: string, listener: (event: RunEvent) => void, afterSeq?: number): () => void;
}
