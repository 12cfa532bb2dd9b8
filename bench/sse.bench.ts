// Streaming throughput: text deltas per second from the agent loop to a client subscribed over HTTP
// SSE, through the real core and HTTP server, fed by the project's fake OpenAI server. Baselines:
// the fake server's stream read directly by the same client code, and through the openai SDK alone
// (Folio's model client is built on it). Rates are steady-state (first to last delta); run start-up
// shows separately as time to first delta. The SSE client runs in a worker thread, as the renderer
// is a process of its own; the SDK (Folio's side of the provider stream) runs here, with the core.
import { rmSync } from 'node:fs';
import OpenAI from 'openai';
import { startFakeOpenAI, type FakeOpenAI } from '../testing/fake-openai/server';
import type { RunEvent } from '../src/shared/contract';
import { findResourcesDir } from '../src/main/config/app-paths';
import { makeDataDir, TEST_KEY } from '../src/main/service/core-test-kit';
import { createCore, type Core } from '../src/main/service/create-core';
import { startHttpServer } from '../src/main/transport/http';
import { completionBody, DeltaClock, type StreamTiming } from './sse-client';
import { SseClientThread } from './sse-client-thread';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

const TEXT_LENGTH = 200_000;
const CHUNK_SIZE = 20;
const DELTAS = TEXT_LENGTH / CHUNK_SIZE;
const RUNS = 3;
const TOKEN = 'bench-token-0123456789abcdef';

const reply = () => ({ text: 'x'.repeat(TEXT_LENGTH), chunkSize: CHUNK_SIZE, usage: { prompt: 10, completion: TEXT_LENGTH / 4 } });

/** The provider alone, read by the SSE client thread. */
function timeProviderStream(fake: FakeOpenAI, client: SseClientThread): Promise<StreamTiming> {
  fake.script([reply()]);
  return client.run({ kind: 'provider', url: fake.url, expected: DELTAS });
}

/** The provider through the openai SDK alone, no Folio code (in this thread, where Folio reads it). */
async function timeSdkStream(fake: FakeOpenAI, sdk: OpenAI): Promise<StreamTiming> {
  fake.script([reply()]);
  const clock = new DeltaClock(DELTAS);
  const stream = await sdk.chat.completions.create(completionBody);
  for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) clock.delta();
  return clock.result();
}

/** Folio over HTTP, read by the SSE client thread: POST a message, subscribe, read to run_finished. */
function timeFolioStream(fake: FakeOpenAI, base: string, client: SseClientThread): Promise<StreamTiming> {
  fake.script([reply()]);
  return client.run({ kind: 'folio', url: base, token: TOKEN, expected: DELTAS });
}

/** The same run observed in-process (core.events), without HTTP: splits core cost from transport cost. */
async function timeInProcess(fake: FakeOpenAI, core: Core): Promise<StreamTiming> {
  fake.script([reply()]);
  const task = await core.handlers.createTask({ mode: 'general' });
  const clock = new DeltaClock(DELTAS);
  const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'Write a very long answer.' });
  let unsubscribe: (() => void) | undefined;
  await new Promise<void>((resolve, reject) => {
    core.events
      .subscribe(task.id, run_id, (e: RunEvent) => {
        clock.event(e.type);
        if (e.type === 'run_finished') resolve();
      })
      .then((stop) => (unsubscribe = stop), reject);
  });
  unsubscribe?.();
  return clock.result();
}

async function run(): Promise<BenchRow[]> {
  const fake = await startFakeOpenAI();
  const dataDir = makeDataDir(fake.url);
  // The production model client (60 s idle watchdog, not the test kit's 400 ms, which a busy
  // machine trips mid-stream), so a run is one uninterrupted stream like the SDK's.
  const core = await createCore({ dataDir, resourcesDir: findResourcesDir(), env: { FAKE_API_KEY: TEST_KEY, PATH: process.env.PATH } });
  await core.ctx.store.settings.set('default_model', 'fake.main');
  const http = await startHttpServer(core, { token: TOKEN });
  const sdk = new OpenAI({ baseURL: fake.url, apiKey: 'sk-bench', maxRetries: 0 });
  const client = new SseClientThread();
  try {
    // Warm-up of every path: JIT, connection pools, the first run's lazy set-up.
    await timeProviderStream(fake, client);
    await timeSdkStream(fake, sdk);
    await timeFolioStream(fake, http.url, client);
    await timeInProcess(fake, core);
    const provider: StreamTiming[] = [];
    const sdkOnly: StreamTiming[] = [];
    const folio: StreamTiming[] = [];
    const inProcess: StreamTiming[] = [];
    for (let i = 0; i < RUNS; i++) {
      provider.push(await timeProviderStream(fake, client));
      sdkOnly.push(await timeSdkStream(fake, sdk));
      folio.push(await timeFolioStream(fake, http.url, client));
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
        note: `${shape}; client in a worker thread; baseline = the fake provider's stream read directly by the same client code`,
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
    await client.close();
    await http.close();
    await core.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'sse', run };
export default bench;
