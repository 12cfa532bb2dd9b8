// A minimal SSE consumer over fetch, the same for Folio's stream and the provider's, so the
// client-side cost is identical on both sides of the comparison.
import { processCpuMs } from './process-cpu';

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Reads an SSE response to its end, calling onEvent for each event (comments are skipped). */
export async function readSse(response: Response, onEvent: (event: SseEvent) => void): Promise<void> {
  if (!response.ok || !response.body) throw new Error(`SSE request failed: HTTP ${response.status} ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (block: string) => {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) onEvent({ event, data: data.join('\n') });
  };
  // fetch bodies are byte streams; the Node typings leave the chunk type open.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      flush(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
  if (buffer.trim() !== '') flush(buffer);
}

/** Rates and times of one streamed response, as seen by its client. */
export interface StreamTiming {
  /** Deltas per second from the first delta to the last. */
  rate: number;
  /** From the request to the first delta (ms). */
  firstMs: number;
  /** From the request to the end of the stream (ms). */
  totalMs: number;
  /** CPU ms each watched process spent from the first delta to the last (RunSseTarget.cpuPids). */
  windowCpuMs?: Record<string, number>;
}

/** When text deltas arrived, relative to the start of the request (ms). */
export class DeltaClock {
  deltas = 0;
  private first = 0;
  private last = 0;
  private readonly started = performance.now();
  private cpuAtFirst: Record<string, number> = {};
  private windowCpuMs: Record<string, number> | undefined;
  /** `cpu`: read at the first delta and at the expected last one, for the window's CPU per process. */
  constructor(
    private readonly expected: number,
    private readonly cpu?: () => Record<string, number>,
  ) {}
  /** A retried stream restarts its deltas: the run's rate would mix two streams. */
  event(type: string | undefined): void {
    if (type === 'text_delta') this.delta();
    else if (type === 'retry') throw new Error('the model stream was retried; rerun on a quieter machine');
  }
  delta(): void {
    const now = performance.now();
    if (this.deltas === 0) this.first = now;
    this.last = now;
    this.deltas += 1;
    // Read after the time is taken, so the reading itself never counts in the rate.
    if (this.cpu && this.deltas === 1) this.cpuAtFirst = this.cpu();
    if (this.cpu && this.deltas === this.expected) {
      const atLast = this.cpu();
      this.windowCpuMs = Object.fromEntries(Object.entries(atLast).map(([name, ms]) => [name, ms - (this.cpuAtFirst[name] ?? 0)]));
    }
  }
  result(): StreamTiming {
    if (this.deltas !== this.expected) throw new Error(`expected ${this.expected} text deltas, got ${this.deltas}`);
    return {
      rate: ((this.deltas - 1) / (this.last - this.first)) * 1000,
      firstMs: this.first - this.started,
      totalMs: performance.now() - this.started,
      ...(this.windowCpuMs ? { windowCpuMs: this.windowCpuMs } : {}),
    };
  }
}

export const completionBody = { model: 'fake-model', stream: true as const, stream_options: { include_usage: true }, messages: [{ role: 'user' as const, content: 'go' }] };

/** The provider alone: POST a streamed completion and parse every chunk, as a client would. */
export async function timeProviderSse(providerUrl: string, expected: number): Promise<StreamTiming> {
  const clock = new DeltaClock(expected);
  const response = await fetch(`${providerUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: JSON.stringify(completionBody),
  });
  await readSse(response, (e) => {
    if (e.data === '[DONE]') return;
    const chunk = JSON.parse(e.data) as { choices?: { delta?: { content?: string | null } }[] };
    if (chunk.choices?.[0]?.delta?.content) clock.delta();
  });
  return clock.result();
}

async function api<T>(base: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Where a run starts, where its events are read, and what the requests carry. */
export interface RunSseTarget {
  /** The server the task is created on and the message is sent to. */
  start: string;
  /** The server whose SSE stream is read (another worker in team mode, or `start`). */
  read: string;
  headers: Record<string, string>;
  /** The task's model; absent, the server's default. */
  model?: string;
  expected: number;
  /** Processes whose CPU time is read at the first and the last delta (Linux /proc), by name. */
  cpuPids?: Record<string, number>;
}

/** Folio over HTTP: send a message, subscribe to the run's events, read until run_finished. */
export async function timeRunSse(target: RunSseTarget): Promise<StreamTiming> {
  const task = await api<{ id: string }>(target.start, target.headers, 'POST', '/v1/tasks', { mode: 'general', ...(target.model ? { model: target.model } : {}) });
  const pids = target.cpuPids;
  const clock = new DeltaClock(target.expected, pids && (() => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processCpuMs(pid)]))));
  const { run_id } = await api<{ run_id: string }>(target.start, target.headers, 'POST', `/v1/tasks/${task.id}/messages`, { content: 'Write a very long answer.' });
  const response = await fetch(`${target.read}/v1/tasks/${task.id}/runs/${run_id}/events`, { headers: { ...target.headers, accept: 'text/event-stream' } });
  let finished: unknown = null;
  await readSse(response, (e) => {
    const event = JSON.parse(e.data) as { type?: string; reason?: string };
    clock.event(event.type);
    if (event.type === 'run_finished') finished = event.reason;
  });
  if (finished !== 'done') throw new Error(`run finished with ${String(finished)}`);
  return clock.result();
}

/** One single-user server, its bearer token. */
export function timeFolioSse(base: string, token: string, expected: number): Promise<StreamTiming> {
  return timeRunSse({ start: base, read: base, headers: { authorization: `Bearer ${token}` }, expected });
}
