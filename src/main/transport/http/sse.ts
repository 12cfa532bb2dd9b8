// Server-sent events for one run: the run's past events (after a given seq), then live ones, until
// `run_finished`. Event ids are the run's seq numbers, so a reconnecting client resumes with
// `Last-Event-ID` and misses nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { type RunEvent } from '../../../shared/contract/events';
import { ValidationError, formatZodError } from '../../../shared/errors';
import type { RunEventHub } from '../../service/ports';

export const DEFAULT_SSE_HEARTBEAT_MS = 15_000;
/** A client this far behind is dropped; it can reconnect with Last-Event-ID. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** The most characters of frames joined into one write. */
export const FLUSH_CHARS = 32 * 1024;

const Seq = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const EventsQuery = z.strictObject({ after: Seq.optional() });

/** `Last-Event-ID` (set by a reconnecting EventSource) wins over `?after=`. */
export function resumeSeq(req: IncomingMessage, query: Record<string, unknown>): number | undefined {
  const parsedQuery = EventsQuery.safeParse(query);
  if (!parsedQuery.success) throw new ValidationError(formatZodError(parsedQuery.error));
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') {
    const parsed = Seq.safeParse(header.trim());
    if (!parsed.success) throw new ValidationError('Last-Event-ID: expected a sequence number');
    return parsed.data;
  }
  return parsedQuery.data.after;
}

export function formatSseEvent(event: RunEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Subscribes before writing anything, so an unknown run (the hub rejects) can still be answered
 * with a JSON error by the caller. Replayed events arrive during `subscribe` and are held until the
 * headers are out.
 */
export async function streamRunEvents(
  hub: RunEventHub,
  req: IncomingMessage,
  res: ServerResponse,
  run: { taskId: string; runId: string; afterSeq: number | undefined },
  heartbeatMs: number,
): Promise<void> {
  let streaming = false;
  let ended = false;
  const backlog: RunEvent[] = [];
  let unsubscribe: (() => void) | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  const stop = () => {
    if (ended) return;
    ended = true;
    if (heartbeat) clearInterval(heartbeat);
    unsubscribe?.();
  };
  // Events come in bursts (a provider read holds many chunks; a replay is thousands at once): the
  // events of one tick are joined and leave as one write when the tick ends, instead of an HTTP
  // chunk and a socket write per event. Order, ids and the end of the stream are unchanged. A burst
  // leaves in writes of at most FLUSH_CHARS: past ~128 kB a string is allocated outside V8's young
  // generation, and flattening and counting the bytes of one that size cost more than formatting
  // its frames did.
  let pending = '';
  const flush = () => {
    if (pending === '' || res.destroyed) return;
    const chunk = pending;
    pending = '';
    res.write(chunk);
    if (!ended && res.writableLength > MAX_BUFFERED_BYTES) {
      stop();
      res.destroy();
    }
  };
  const write = (event: RunEvent) => {
    if (ended) return;
    if (pending === '') process.nextTick(flush);
    pending += formatSseEvent(event);
    if (pending.length >= FLUSH_CHARS) flush();
    if (event.type === 'run_finished') {
      stop();
      flush();
      res.end();
    }
  };
  const listener = (event: RunEvent) => {
    if (streaming) write(event);
    else backlog.push(event);
  };

  unsubscribe = await hub.subscribe(run.taskId, run.runId, listener, run.afterSeq);
  // The cluster's hub looks the run up in the database first: a client that left meanwhile fired
  // 'close' before anyone listened, so nothing else would ever unsubscribe it or stop a heartbeat.
  if (res.destroyed || req.destroyed) {
    stop();
    return;
  }

  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);
  res.on('close', stop);
  // A write racing a closed socket must end this stream, not the process.
  res.on('error', stop);
  streaming = true;
  for (const event of backlog.splice(0)) write(event);
  if (!ended) {
    heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
    heartbeat.unref();
  }
}
