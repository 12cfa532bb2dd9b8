// Streaming throughput: text deltas per second from the agent loop to a client subscribed over HTTP
// SSE, through the real core and HTTP server, fed by the project's fake OpenAI server. Baselines:
// the fake server's stream read directly by the same client code, and through the openai SDK alone
// (Folio's model client is built on it). Rates are steady-state (first to last delta); run start-up
// shows separately as time to first delta.
import { rmSync } from 'node:fs';
import OpenAI from 'openai';
import { startFakeOpenAI, type FakeOpenAI } from '../testing/fake-openai/server';
import type { RunEvent } from '../src/shared/contract';
import { findResourcesDir } from '../src/main/config/app-paths';
import { makeDataDir, TEST_KEY } from '../src/main/service/core-test-kit';
import { createCore, type Core } from '../src/main/service/create-core';
import { startHttpServer } from '../src/main/transport/http';
import { readSse } from './sse-client';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

const TEXT_LENGTH = 200_000;
const CHUNK_SIZE = 20;
const DELTAS = TEXT_LENGTH / CHUNK_SIZE;
const RUNS = 3;
const TOKEN = 'bench-token-0123456789abcdef';

const reply = () => ({ text: 'x'.repeat(TEXT_LENGTH), chunkSize: CHUNK_SIZE, usage: { prompt: 10, completion: TEXT_LENGTH / 4 } });

/** When text deltas arrived, relative to the start of the request (ms). */
class DeltaClock {
  deltas = 0;
  private first = 0;
  private last = 0;
  private readonly started = performance.now();
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
  }
  result(): StreamTiming {
    if (this.deltas !== DELTAS) throw new Error(`expected ${DELTAS} text deltas, got ${this.deltas}`);
    return { rate: ((this.deltas - 1) / (this.last - this.first)) * 1000, firstMs: this.first - this.started, totalMs: performance.now() - this.started };
  }
}

interface StreamTiming {
  /** Deltas per second from the first delta to the last. */
  rate: number;
  /** From the request to the first delta. */
  firstMs: number;
  /** From the request to the end of the stream. */
  totalMs: number;
}

const completionBody = { model: 'fake-model', stream: true as const, stream_options: { include_usage: true }, messages: [{ role: 'user' as const, content: 'go' }] };

/** The provider alone: POST a streamed completion and parse every chunk, as a client would. */
async function timeProviderStream(fake: FakeOpenAI): Promise<StreamTiming> {
  fake.script([reply()]);
  const clock = new DeltaClock();
  const response = await fetch(`${fake.url}/chat/completions`, {
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

/** The provider through the openai SDK alone, no Folio code. */
async function timeSdkStream(fake: FakeOpenAI, client: OpenAI): Promise<StreamTiming> {
  fake.script([reply()]);
  const clock = new DeltaClock();
  const stream = await client.chat.completions.create(completionBody);
  for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) clock.delta();
  return clock.result();
}

async function api<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Folio over HTTP: send a message, subscribe to the run's events, read until run_finished. */
async function timeFolioStream(fake: FakeOpenAI, base: string): Promise<StreamTiming> {
  fake.script([reply()]);
  const task = await api<{ id: string }>(base, 'POST', '/v1/tasks', { mode: 'general' });
  const clock = new DeltaClock();
  const { run_id } = await api<{ run_id: string }>(base, 'POST', `/v1/tasks/${task.id}/messages`, { content: 'Write a very long answer.' });
  const response = await fetch(`${base}/v1/tasks/${task.id}/runs/${run_id}/events`, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' } });
  let finished: unknown = null;
  await readSse(response, (e) => {
    const event = JSON.parse(e.data) as { type?: string; reason?: string };
    clock.event(event.type);
    if (event.type === 'run_finished') finished = event.reason;
  });
  if (finished !== 'done') throw new Error(`run finished with ${String(finished)}`);
  return clock.result();
}

/** The same run observed in-process (core.events), without HTTP: splits core cost from transport cost. */
async function timeInProcess(fake: FakeOpenAI, core: Core): Promise<StreamTiming> {
  fake.script([reply()]);
  const task = await core.handlers.createTask({ mode: 'general' });
  const clock = new DeltaClock();
  const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'Write a very long answer.' });
  await new Promise<void>((resolve) => {
    const unsubscribe = core.events.subscribe(task.id, run_id, (e: RunEvent) => {
      clock.event(e.type);
      if (e.type === 'run_finished') {
        queueMicrotask(() => unsubscribe?.());
        resolve();
      }
    });
  });
  return clock.result();
}

async function run(): Promise<BenchRow[]> {
  const fake = await startFakeOpenAI();
  const dataDir = makeDataDir(fake.url);
  // The production model client (60 s idle watchdog, not the test kit's 400 ms, which a busy
  // machine trips mid-stream), so a run is one uninterrupted stream like the SDK's.
  const core = createCore({ dataDir, resourcesDir: findResourcesDir(), env: { FAKE_API_KEY: TEST_KEY, PATH: process.env.PATH } });
  core.ctx.store.settings.set('default_model', 'fake.main');
  const http = await startHttpServer(core, { token: TOKEN });
  const sdk = new OpenAI({ baseURL: fake.url, apiKey: 'sk-bench', maxRetries: 0 });
  try {
    // Warm-up of every path: JIT, connection pools, the first run's lazy set-up.
    await timeProviderStream(fake);
    await timeSdkStream(fake, sdk);
    await timeFolioStream(fake, http.url);
    await timeInProcess(fake, core);
    const provider: StreamTiming[] = [];
    const sdkOnly: StreamTiming[] = [];
    const folio: StreamTiming[] = [];
    const inProcess: StreamTiming[] = [];
    for (let i = 0; i < RUNS; i++) {
      provider.push(await timeProviderStream(fake));
      sdkOnly.push(await timeSdkStream(fake, sdk));
      folio.push(await timeFolioStream(fake, http.url));
      inProcess.push(await timeInProcess(fake, core));
    }
    const rate = (timings: StreamTiming[]) => median(timings.map((t) => t.rate));
    const shape = `${DELTAS.toLocaleString('en-US')} deltas of ${CHUNK_SIZE} chars, median of ${RUNS}`;
    return [
      {
        name: 'text deltas/s at an SSE client',
        folio: rate(folio),
        baseline: rate(provider),
        unit: 'ev/s',
        note: `${shape}; baseline = the fake provider's stream read directly by the same client code`,
      },
      {
        name: 'text deltas/s at an SSE client, vs openai SDK',
        folio: rate(folio),
        baseline: rate(sdkOnly),
        unit: 'ev/s',
        target: '≥ 0.8',
        note: "baseline = the openai SDK alone iterating the fake's stream (Folio's model client is built on it)",
      },
      {
        name: 'text deltas/s in-process (core.events), vs SDK',
        folio: rate(inProcess),
        baseline: rate(sdkOnly),
        unit: 'ev/s',
        note: 'same run without HTTP/SSE: its gap to the row above is the transport',
      },
      {
        name: 'time to first delta at the client',
        folio: median(folio.map((t) => t.firstMs)),
        baseline: median(provider.map((t) => t.firstMs)),
        unit: 'ms',
        note: 'Folio: from POST …/messages (run start-up: profile, tools, prompt, SDK request) + subscribe',
      },
      {
        name: 'time to first delta at the client, vs openai SDK',
        folio: median(folio.map((t) => t.firstMs)),
        baseline: median(sdkOnly.map((t) => t.firstMs)),
        unit: 'ms',
        target: '≤ SDK + 20 ms',
        note: `Folio: POST …/messages → first text_delta on the SSE client; SDK: create() → first chunk; difference ${(median(folio.map((t) => t.firstMs)) - median(sdkOnly.map((t) => t.firstMs))).toFixed(1)} ms`,
      },
      {
        name: 'end-to-end stream time',
        folio: median(folio.map((t) => t.totalMs)) / 1000,
        baseline: median(provider.map((t) => t.totalMs)) / 1000,
        unit: 's',
        note: 'Folio: POST …/messages → run_finished at the client; baseline: POST completion → [DONE]',
      },
    ];
  } finally {
    await http.close();
    await core.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'sse', run };
export default bench;
