import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { FolioError } from '../../shared/errors';
import { createHttpApi, type FetchLike, planHttpRequest, subscribeRunOverSse } from './http-transport';

interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: RequestInit['body'];
}

function fakeFetch(respond: (req: Recorded, index: number) => Response | Promise<Response>) {
  const requests: Recorded[] = [];
  const fetch: FetchLike = async (url, init) => {
    const req: Recorded = {
      url,
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: init?.body,
    };
    requests.push(req);
    return respond(req, requests.length - 1);
  };
  return { fetch, requests };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('planHttpRequest', () => {
  it('fills :params from the input and sends the rest as query for GET', () => {
    expect(planHttpRequest('listMessages', { task_id: 't1', before_seq: 40, limit: 100 })).toEqual({
      method: 'GET',
      url: '/v1/tasks/t1/messages?before_seq=40&limit=100',
    });
  });

  it('omits undefined fields and the query string when nothing is left', () => {
    expect(planHttpRequest('listTasks', { status: undefined })).toEqual({ method: 'GET', url: '/v1/tasks' });
    expect(planHttpRequest('listTasks', { status: 'active', q: 'deck & notes' })).toEqual({
      method: 'GET',
      url: '/v1/tasks?status=active&q=deck+%26+notes',
    });
  });

  it('sends remaining fields as a JSON body for POST and PATCH, keeping nulls', () => {
    expect(planHttpRequest('updateTask', { task_id: 't1', title: 'New', model: null })).toEqual({
      method: 'PATCH',
      url: '/v1/tasks/t1',
      body: JSON.stringify({ title: 'New', model: null }),
    });
    expect(planHttpRequest('decideApproval', { task_id: 't1', run_id: 'r1', call_id: 'call/1 x', decision: 'deny', reason: 'no' })).toEqual({
      method: 'POST',
      url: '/v1/tasks/t1/runs/r1/approvals/call%2F1%20x',
      body: JSON.stringify({ decision: 'deny', reason: 'no' }),
    });
  });

  it('encodes each segment of a *path but keeps the slashes', () => {
    expect(planHttpRequest('deleteFile', { task_id: 't1', path: 'source/my notes/报告 #1.pdf' })).toEqual({
      method: 'DELETE',
      url: '/v1/tasks/t1/files/source/my%20notes/%E6%8A%A5%E5%91%8A%20%231.pdf',
    });
  });

  it('asks download routes for the JSON shape', () => {
    expect(planHttpRequest('readFile', { task_id: 't1', path: 'artifact/deck.pptx' }).url).toBe('/v1/tasks/t1/files/artifact/deck.pptx?format=json');
  });

  it('refuses IPC-only methods and missing route params with typed errors', () => {
    expect(() => planHttpRequest('addFiles', { task_id: 't1', paths: ['/tmp/a'] })).toThrow(FolioError);
    try {
      planHttpRequest('getTask', {});
    } catch (err) {
      expect(err).toBeInstanceOf(FolioError);
      expect((err as FolioError).code).toBe('invalid_input');
    }
    expect.assertions(3);
  });
});

describe('createHttpApi', () => {
  it('calls the derived route with the bearer token and returns the JSON body', async () => {
    const { fetch, requests } = fakeFetch(() => json({ run_id: 'r9' }));
    const api = createHttpApi({ token: 'sekret', fetch, baseUrl: 'http://127.0.0.1:9' });
    await expect(api.client.sendMessage({ task_id: 't1', content: 'Hi' })).resolves.toEqual({ run_id: 'r9' });
    expect(requests[0]).toMatchObject({
      url: 'http://127.0.0.1:9/v1/tasks/t1/messages',
      method: 'POST',
      body: '{"content":"Hi"}',
      headers: { Authorization: 'Bearer sekret', 'Content-Type': 'application/json' },
    });
  });

  it('turns an {error} body into a FolioError with its code', async () => {
    const { fetch } = fakeFetch(() => json({ error: { name: 'NotFoundError', code: 'not_found', message: 'task t1 not found' } }, 404));
    const api = createHttpApi({ token: 'x', fetch });
    const err = await api.client.getTask({ task_id: 't1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FolioError);
    expect(err).toMatchObject({ code: 'not_found', message: 'task t1 not found', name: 'NotFoundError' });
  });

  it('maps a non-JSON error response by status', async () => {
    const { fetch } = fakeFetch(() => new Response('nope', { status: 401 }));
    const err = await createHttpApi({ token: 'bad', fetch })
      .client.listTasks({})
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unauthorized' });
  });

  it('uploads files as multipart without setting Content-Type itself', async () => {
    const { fetch, requests } = fakeFetch(() => json({ files: [{ task_id: 't1', path: 'source/a.txt', kind: 'source', size: 2, sha256: 'x', created_at: 1 }] }));
    const api = createHttpApi({ token: 'x', fetch });
    const files = await api.addFiles('t1', [new File(['hi'], 'a.txt', { type: 'text/plain' })]);
    expect(files.map((f) => f.path)).toEqual(['source/a.txt']);
    expect(requests[0].url).toBe('/v1/tasks/t1/files');
    expect(requests[0].method).toBe('POST');
    expect(requests[0].headers['Content-Type']).toBeUndefined();
    const body = requests[0].body as FormData;
    expect((body.get('files') as File).name).toBe('a.txt');
  });

  it('downloads raw file bytes (not the JSON form) with the token', async () => {
    const { fetch, requests } = fakeFetch(() => new Response('PK-bytes', { status: 200 }));
    const blob = await createHttpApi({ token: 'x', fetch }).downloadFile('t1', 'artifact/my deck.pptx');
    expect(await blob.text()).toBe('PK-bytes');
    expect(requests[0].url).toBe('/v1/tasks/t1/files/artifact/my%20deck.pptx');
    expect(requests[0].headers.Authorization).toBe('Bearer x');
  });

  it('downloads a library file from its library, for a search hit', async () => {
    const { fetch, requests } = fakeFetch(() => new Response('%PDF-bytes', { status: 200 }));
    const blob = await createHttpApi({ token: 'x', fetch }).downloadLibraryFile('personal', 'papers/热岛 notes.pdf');
    expect(await blob.text()).toBe('%PDF-bytes');
    expect(requests[0].url).toBe('/v1/projects/personal/files/papers/%E7%83%AD%E5%B2%9B%20notes.pdf');
    expect(requests[0].headers.Authorization).toBe('Bearer x');
  });
});

function event(seq: number, body: Record<string, unknown>): RunEvent {
  return { run_id: 'r1', task_id: 't1', seq, at: 1000 + seq, ...body } as RunEvent;
}

function sseFrame(e: RunEvent): string {
  return `id: ${e.seq}\nevent: run_event\ndata: ${JSON.stringify(e)}\n\n`;
}

/** A response body that yields the given chunks, then either ends or fails like a dropped connection. */
function streamResponse(chunks: string[], end: 'close' | 'drop'): Response {
  const encoder = new TextEncoder();
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]));
      else if (end === 'drop') controller.error(new TypeError('network error'));
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

function collect(fetch: FetchLike, onError?: (e: FolioError) => void) {
  const events: RunEvent[] = [];
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const unsubscribe = subscribeRunOverSse({
    fetch,
    url: '/v1/tasks/t1/runs/r1/events',
    token: 'tok',
    reconnectDelaysMs: [1],
    listener: (e) => {
      events.push(e);
      if (e.type === 'run_finished') resolveDone();
    },
    onError: (e) => {
      onError?.(e);
      resolveDone();
    },
  });
  return { events, done, unsubscribe };
}

describe('subscribeRunOverSse', () => {
  it('reconnects after a drop with Last-Event-ID, skips replays, and stops after run_finished', async () => {
    const e1 = event(1, { type: 'run_started', model: null, resumed: false });
    const e2 = event(2, { type: 'text_delta', delta: 'Hel' });
    const e3 = event(3, { type: 'text_delta', delta: 'lo' });
    const e4 = event(4, { type: 'run_finished', reason: 'done', duration_ms: 5 });
    const frames2 = sseFrame(e2);
    const { fetch, requests } = fakeFetch((_req, index) =>
      index === 0
        ? // first connection: event 1, half of event 2, then the network drops
          streamResponse([': ping\n\n', sseFrame(e1), frames2.slice(0, 20)], 'drop')
        : // second: the server replays from after id 1 (and we guard against an overlapping replay of 1)
          streamResponse([sseFrame(e1), frames2, sseFrame(e3), sseFrame(e4), sseFrame(event(5, { type: 'text_delta', delta: 'late' }))], 'close'),
    );
    const { events, done } = collect(fetch);
    await done;
    await new Promise((r) => setTimeout(r, 20));
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(requests).toHaveLength(2);
    expect(requests[0].headers['Last-Event-ID']).toBeUndefined();
    expect(requests[0].headers.Authorization).toBe('Bearer tok');
    expect(requests[1].headers['Last-Event-ID']).toBe('1');
  });

  it('reconnects when the server ends the stream before run_finished', async () => {
    const { fetch, requests } = fakeFetch((_req, index) =>
      index === 0
        ? streamResponse([sseFrame(event(1, { type: 'text_delta', delta: 'a' }))], 'close')
        : streamResponse([sseFrame(event(2, { type: 'run_finished', reason: 'cancelled', duration_ms: 1 }))], 'close'),
    );
    const { events, done } = collect(fetch);
    await done;
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'run_finished']);
    expect(requests[1].headers['Last-Event-ID']).toBe('1');
  });

  it('reports a client error once and does not retry', async () => {
    const errors: FolioError[] = [];
    const { fetch, requests } = fakeFetch(() => json({ error: { name: 'NotFoundError', code: 'not_found', message: 'no such run' } }, 404));
    const { done } = collect(fetch, (e) => errors.push(e));
    await done;
    await new Promise((r) => setTimeout(r, 20));
    expect(errors.map((e) => e.code)).toEqual(['not_found']);
    expect(requests).toHaveLength(1);
  });

  it('stops reconnecting once unsubscribed', async () => {
    const { fetch, requests } = fakeFetch(() => Promise.reject(new TypeError('connection refused')));
    const { unsubscribe } = collect(fetch);
    await new Promise((r) => setTimeout(r, 30));
    unsubscribe();
    const count = requests.length;
    expect(count).toBeGreaterThan(1); // it did retry while subscribed
    await new Promise((r) => setTimeout(r, 30));
    expect(requests.length).toBe(count);
  });
});
