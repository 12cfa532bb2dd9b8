// Embedding backfill: gives every library page a vector for the current embedding model, in the
// background, in batches. Its only state is the database (a page lacks a vector for the model or
// has one), so it resumes after a restart, a model change re-embeds, and a page re-indexed mid-batch
// is simply picked up again. The integrator calls kick() after indexing and at start-up. It works on
// the store port, so on PostgreSQL it fills the scope's tenant's pages.
import type { StorePort } from '../store/port';
import { EmbeddingError } from './embeddings';
import type { Embedder } from './search';
import { toBlob } from './vectors';

export const BACKFILL_BATCH = 32;
/** Wait before trying again after the endpoint failed (longer when it said "slow down"). */
export const RETRY_MS = 30_000;
const RATE_LIMITED_RETRY_MS = 60_000;

export interface BackfillStatus {
  running: boolean;
  /** Pages embedded by this backfill since it was created. */
  embedded: number;
  /** The last failure, until a batch succeeds again. */
  error: string | null;
}

export interface EmbeddingBackfill {
  /** Starts (or restarts after the current pass) the backfill; returns at once. */
  kick(): void;
  /** Resolves when no pass is running or scheduled to start right away (tests, shutdown). */
  idle(): Promise<void>;
  status(): BackfillStatus;
  /** Aborts the request in flight and cancels the retry timer. */
  stop(): void;
}

export interface BackfillOptions {
  batchSize?: number;
  retryMs?: number;
  onProgress?: (status: BackfillStatus) => void;
}

export function createEmbeddingBackfill(store: StorePort, embedder: () => Embedder | null | Promise<Embedder | null>, opts: BackfillOptions = {}): EmbeddingBackfill {
  const batchSize = opts.batchSize ?? BACKFILL_BATCH;
  const retryMs = opts.retryMs ?? RETRY_MS;

  let loop: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let controller: AbortController | null = null;
  const status: BackfillStatus = { running: false, embedded: 0, error: null };

  async function pass(current: Embedder, signal: AbortSignal): Promise<void> {
    let after = 0;
    for (;;) {
      const rows = await store.library.pagesToEmbed(current.model, after, batchSize);
      if (rows.length === 0) return;
      const vectors = await current.embed(rows.map((r) => r.text), signal);
      // Stored only where the text is still what was embedded: a page re-extracted meanwhile is embedded next pass.
      const done = rows.flatMap((r, i) => {
        const v = vectors[i];
        return v === undefined ? [] : [{ ...r, embedding: toBlob(v) }];
      });
      status.embedded += await store.library.storeVectors(current.model, done);
      status.error = null;
      opts.onProgress?.({ ...status });
      after = rows[rows.length - 1]?.id ?? after;
    }
  }

  async function run(): Promise<void> {
    status.running = true;
    try {
      do {
        again = false;
        const current = await embedder();
        if (current === null || stopped) return;
        controller = new AbortController();
        await pass(current, controller.signal);
      } while (again && !stopped);
    } catch (err) {
      if (stopped) return;
      status.error = err instanceof Error ? err.message : String(err);
      opts.onProgress?.({ ...status });
      const wait = err instanceof EmbeddingError && err.kind === 'rate_limited' ? Math.max(retryMs, RATE_LIMITED_RETRY_MS) : retryMs;
      retryTimer = setTimeout(() => {
        retryTimer = null;
        kick();
      }, wait);
      retryTimer.unref();
    } finally {
      status.running = false;
      controller = null;
    }
  }

  function kick(): void {
    if (stopped) return;
    if (retryTimer !== null) {
      clearTimeout(retryTimer);
      retryTimer = null;
    }
    if (loop !== null) {
      again = true;
      return;
    }
    // Cleared after it settles, never inside run(): a pass with nothing to do finishes synchronously.
    const started: Promise<void> = run().finally(() => {
      if (loop === started) loop = null;
    });
    loop = started;
  }

  return {
    kick,
    async idle() {
      while (loop !== null) await loop;
    },
    status: () => ({ ...status }),
    stop() {
      stopped = true;
      controller?.abort();
      if (retryTimer !== null) clearTimeout(retryTimer);
      retryTimer = null;
    },
  };
}
