import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunEvent } from '../../../shared/contract/events';
import { MemoryRunEventHub } from '../memory-event-hub.test-support';
import { FLUSH_CHARS, streamRunEvents } from './sse';
import { TEST_TOKEN, type TestServer, errorOf, startTestServer } from './http-test-kit.test-support';

let srv: TestServer;
let taskId = '';
let runId = '';

beforeEach(async () => {
  srv = await startTestServer({ sseHeartbeatMs: 40 });
  taskId = (await srv.core.handlers.createTask({ mode: 'general' })).id;
  runId = (await srv.core.handlers.sendMessage({ task_id: taskId, content: 'go' })).run_id; // seq 1: run_started
  srv.core.hub.emit(runId, { type: 'text_delta', delta: 'Hel' }); // seq 2
});
afterEach(async () => {
  await srv.close();
});

interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads SSE frames from a response body; `next()` resolves with the next frame, or null at the end. */
function frames(res: Response) {
  const reader: ReadableStreamDefaultReader<Uint8Array> = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<SseFrame | null> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: SseFrame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comment = line.slice(1).trim();
            else {
              const colon = line.indexOf(':');
              (frame as Record<string, string>)[line.slice(0, colon)] = line.slice(colon + 2);
            }
          }
          return frame;
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** The next event frame, skipping heartbeats. */
    async nextEvent(): Promise<RunEvent | null> {
      for (;;) {
        const frame = await this.next();
        if (frame === null) return null;
        if (frame.comment !== undefined) continue;
        const event = JSON.parse(frame.data!) as RunEvent;
        expect(frame.id).toBe(String(event.seq));
        expect(frame.event).toBe(event.type);
        return event;
      }
    },
    cancel: () => reader.cancel(),
  };
}

const eventsPath = () => `/v1/tasks/${taskId}/runs/${runId}/events`;

describe('run events over SSE', () => {
  it('replays past events to a late subscriber, then live ones in order, and ends after run_finished', async () => {
    const res = await srv.api(eventsPath());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const stream = frames(res);
    expect(await stream.nextEvent()).toMatchObject({ seq: 1, type: 'run_started' });
    expect(await stream.nextEvent()).toMatchObject({ seq: 2, type: 'text_delta', delta: 'Hel' });

    srv.core.hub.emit(runId, { type: 'text_delta', delta: 'lo 世界' });
    srv.core.hub.emit(runId, { type: 'usage', prompt_tokens: 3, completion_tokens: 4, cost: 0.01 });
    expect(await stream.nextEvent()).toMatchObject({ seq: 3, delta: 'lo 世界' });
    expect(await stream.nextEvent()).toMatchObject({ seq: 4, type: 'usage' });

    srv.core.hub.emit(runId, { type: 'run_finished', reason: 'done', duration_ms: 5 });
    expect(await stream.nextEvent()).toMatchObject({ seq: 5, type: 'run_finished' });
    expect(await stream.next()).toBeNull();
    expect(srv.core.hub.listenerCount(runId)).toBe(0);
  });

  it('a burst of events in one tick arrives whole and in order, ending with run_finished', async () => {
    const stream = frames(await srv.api(eventsPath()));
    expect(await stream.nextEvent()).toMatchObject({ seq: 1 });
    expect(await stream.nextEvent()).toMatchObject({ seq: 2 });
    for (let i = 0; i < 500; i++) srv.core.hub.emit(runId, { type: 'text_delta', delta: `d${i}\n` });
    srv.core.hub.emit(runId, { type: 'run_finished', reason: 'done', duration_ms: 1 });
    for (let i = 0; i < 500; i++) expect(await stream.nextEvent()).toMatchObject({ seq: i + 3, delta: `d${i}\n` });
    expect(await stream.nextEvent()).toMatchObject({ seq: 503, type: 'run_finished' });
    expect(await stream.next()).toBeNull();
  });

  /** A stream of run 'r1' into a response that records each socket write. */
  function recordedStream(): { hub: MemoryRunEventHub; hubRun: string; writes: string[] } {
    const hub = new MemoryRunEventHub();
    const hubRun = 'r1';
    hub.startRun('t', hubRun);
    const writes: string[] = [];
    const res = Object.assign(new EventEmitter(), {
      destroyed: false,
      writableLength: 0,
      writeHead: () => undefined,
      flushHeaders: () => undefined,
      write: (chunk: string) => writes.push(chunk) > 0,
      end: () => writes.push('<end>'),
      destroy: () => undefined,
    });
    const req = { socket: { setNoDelay: () => undefined } };
    void streamRunEvents(hub, req as unknown as IncomingMessage, res as unknown as ServerResponse, { taskId: 't', runId: hubRun, afterSeq: undefined }, 60_000);
    return { hub, hubRun, writes };
  }

  it('writes the events of one tick to the socket together, one tick after another', async () => {
    const { hub, hubRun, writes } = recordedStream();
    hub.emit(hubRun, { type: 'text_delta', delta: 'a' });
    hub.emit(hubRun, { type: 'text_delta', delta: 'b' });
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^id: 1\nevent: text_delta\n.*"delta":"a".*\n\nid: 2\n.*"delta":"b"/s);
    hub.emit(hubRun, { type: 'text_delta', delta: 'c' });
    hub.emit(hubRun, { type: 'run_finished', reason: 'done', duration_ms: 1 });
    // The last event does not wait for the tick: the stream ends at once, with it.
    expect(writes.slice(1)).toHaveLength(2);
    expect(writes[1]).toMatch(/^id: 3\n.*\n\nid: 4\nevent: run_finished\n/s);
    expect(writes[2]).toBe('<end>');
  });

  it('sends a burst of thousands of events in writes of at most FLUSH_CHARS plus one frame, in order', async () => {
    const { hub, hubRun, writes } = recordedStream();
    for (let i = 0; i < 3_000; i++) hub.emit(hubRun, { type: 'text_delta', delta: 'x'.repeat(20) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.length).toBeGreaterThan(1);
    for (const chunk of writes) expect(chunk.length).toBeLessThan(FLUSH_CHARS + 1_000);
    expect([...writes.join('').matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual(Array.from({ length: 3_000 }, (_, i) => i + 1));
  });

  it('a client gone while the run was looked up leaves no subscription and no heartbeat behind', async () => {
    let unsubscribed = 0;
    let resolveSubscribe: (unsubscribe: () => void) => void = () => undefined;
    const hub = {
      // The cluster's hub looks the run up in the database first: the client may leave meanwhile.
      subscribe: () => new Promise<() => void>((resolve) => (resolveSubscribe = resolve)),
    };
    const writes: string[] = [];
    const res = Object.assign(new EventEmitter(), {
      destroyed: false,
      writableLength: 0,
      writeHead: () => writes.push('<head>'),
      flushHeaders: () => undefined,
      write: (chunk: string) => writes.push(chunk) > 0,
      end: () => writes.push('<end>'),
      destroy: () => undefined,
    });
    const req = { socket: { setNoDelay: () => undefined } };
    const streaming = streamRunEvents(hub, req as unknown as IncomingMessage, res as unknown as ServerResponse, { taskId: 't', runId: 'r', afterSeq: undefined }, 5);
    res.destroyed = true;
    res.emit('close');
    resolveSubscribe(() => (unsubscribed += 1));
    await streaming;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(unsubscribed).toBe(1);
    expect(writes).toEqual([]);
  });

  it('resumes after Last-Event-ID, which wins over ?after', async () => {
    srv.core.hub.emit(runId, { type: 'text_delta', delta: '3' });
    const res = await srv.api(`${eventsPath()}?after=0`, { headers: { 'last-event-id': '2' } });
    const stream = frames(res);
    expect(await stream.nextEvent()).toMatchObject({ seq: 3 });
    srv.core.hub.emit(runId, { type: 'run_finished', reason: 'cancelled', duration_ms: 1 });
    expect(await stream.nextEvent()).toMatchObject({ seq: 4 });
    expect(await stream.next()).toBeNull();
  });

  it('resumes after ?after=<seq>', async () => {
    srv.core.hub.emit(runId, { type: 'run_finished', reason: 'done', duration_ms: 1 });
    const stream = frames(await srv.api(`${eventsPath()}?after=2`));
    expect(await stream.nextEvent()).toMatchObject({ seq: 3, type: 'run_finished' });
    expect(await stream.next()).toBeNull();
  });

  it('sends a ping comment while idle', async () => {
    const stream = frames(await srv.api(`${eventsPath()}?after=2`));
    expect(await stream.next()).toEqual({ comment: 'ping' });
    await stream.cancel();
  });

  it('unsubscribes when the client goes away', async () => {
    const stream = frames(await srv.api(eventsPath()));
    await stream.nextEvent();
    expect(srv.core.hub.listenerCount(runId)).toBe(1);
    await stream.cancel();
    await expect.poll(() => srv.core.hub.listenerCount(runId)).toBe(0);
  });

  it('answers 404 JSON for an unknown run, 400 for bad ids or resume points, 401 without a token', async () => {
    const unknown = await srv.api(`/v1/tasks/${taskId}/runs/run_missing/events`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
    expect(await errorOf(unknown)).toMatchObject({ code: 'not_found' });
    expect((await srv.api(`/v1/tasks/${taskId}/runs/bad%20id/events`)).status).toBe(400);
    expect((await srv.api(`${eventsPath()}?after=-1`)).status).toBe(400);
    expect((await srv.api(`${eventsPath()}?since=1`)).status).toBe(400);
    expect((await srv.api(eventsPath(), { headers: { 'last-event-id': 'abc' } })).status).toBe(400);
    expect((await fetch(`${srv.url}${eventsPath()}`, { headers: { authorization: `Bearer ${TEST_TOKEN}0` } })).status).toBe(401);
  });
});
