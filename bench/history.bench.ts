// Long conversations: opening a task with 10,000 messages over /v1 (the first page of its history
// is the tail), everything else the renderer asks for when it opens a task, and appending a message
// the way a run does. Baselines are the same calls on a task with 100 messages (append: into an
// empty task), so the ratio shows what the history's length costs.
import { rmSync } from 'node:fs';
import type { ToolCall } from '../src/shared/contract';
import { makeCore, makeDataDir } from '../src/main/service/core-test-kit';
import type { Core } from '../src/main/service/create-core';
import { newId } from '../src/main/runs/run-manager';
import { startHttpServer } from '../src/main/transport/http';
import { median } from './stats';
import { type Bench, type BenchRow } from './types';

const LONG = 10_000;
const SHORT = 100;
const REQUESTS = 20;
const APPENDS = 2_000;
const TOKEN = 'bench-token-0123456789abcdef';

const CJK = '长对话的历史记录需要分页加载，滚动时保持位置不变。';
const LATIN = 'The quarterly revenue table lists every region with its growth and margin. ';

/** The i-th message of a realistic agent conversation: user, assistant calling tools, results, answer. */
export function messageAt(i: number, taskId: string, runId: string) {
  const base = { id: newId('m'), task_id: taskId, run_id: runId };
  switch (i % 5) {
    case 0:
      return { ...base, role: 'user' as const, content: `${i % 3 === 0 ? CJK : LATIN} (${i})` };
    case 1: {
      const calls: ToolCall[] = [0, 1].map((k) => ({
        id: `call_${i}_${k}`,
        name: k === 0 ? 'read_file' : 'web_fetch',
        arguments: JSON.stringify({ path: `sources/report-${i}-${k}.md`, note: LATIN.repeat(3) }),
      }));
      return { ...base, role: 'assistant' as const, content: '', tool_calls: calls };
    }
    case 2:
    case 3: {
      const k = (i % 5) - 2;
      const body = (i % 2 === 0 ? CJK : LATIN).repeat(40 + (i % 7) * 10); // ~2-6 kB
      return { ...base, role: 'tool' as const, content: body, tool_call_id: `call_${i - 1 - k}_${k}`, name: k === 0 ? 'read_file' : 'web_fetch' };
    }
    default:
      return { ...base, role: 'assistant' as const, content: `${LATIN.repeat(4)}${CJK}` };
  }
}

async function seedTask(core: Core, count: number): Promise<string> {
  const store = core.ctx.store;
  const task = await store.tasks.create({ id: newId('t'), mode: 'general', title: `history ${count}`, description: '', model: null });
  const runId = newId('r');
  await store.runs.create({ id: runId, task_id: task.id, model: 'fake.main' });
  await store.transaction(async (tx) => {
    for (let i = 0; i < count; i++) await tx.messages.append(messageAt(i, task.id, runId));
  });
  return task.id;
}

async function getJson(base: string, path: string): Promise<unknown> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
  return response.json();
}

interface Timings {
  median: number;
  p99: number;
}

function summarize(samples: number[]): Timings {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] };
}

async function timeRequests(fn: () => Promise<unknown>, n = REQUESTS): Promise<Timings> {
  await fn(); // warm-up: JIT, the statement cache, the connection
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return summarize(samples);
}

/** What the renderer fetches when a task opens (chat-store's open + the branches store), concurrently as it does. */
const openTask = (base: string, taskId: string) => async () => {
  await getJson(base, `/v1/tasks/${taskId}`);
  await Promise.all([
    getJson(base, `/v1/tasks/${taskId}/messages?limit=100`),
    getJson(base, `/v1/tasks/${taskId}/runs`),
    getJson(base, `/v1/tasks/${taskId}/approvals`),
    getJson(base, `/v1/tasks/${taskId}/branches`),
  ]);
};

/** Every page, newest first, as scrolling to the very top would fetch them. */
const allPages = (base: string, taskId: string) => async () => {
  let before: number | null = null;
  for (;;) {
    const page = (await getJson(base, `/v1/tasks/${taskId}/messages?limit=500${before === null ? '' : `&before_seq=${before}`}`)) as {
      messages: { seq: number }[];
      has_more: boolean;
    };
    if (!page.has_more) return;
    before = page.messages[0].seq;
  }
};

/** Appends as a run does (assistant message, tool result), each timed alone. */
async function timeAppends(core: Core, taskId: string): Promise<Timings> {
  const runId = newId('r');
  await core.ctx.store.runs.create({ id: runId, task_id: taskId, model: 'fake.main' });
  const samples: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const message = messageAt(i % 2 === 0 ? 4 : 2, taskId, runId);
    const started = performance.now();
    await core.ctx.store.messages.append(message);
    samples.push(performance.now() - started);
  }
  return summarize(samples.slice(20)); // the first appends warm the statements
}

async function run(): Promise<BenchRow[]> {
  const dataDir = makeDataDir('http://127.0.0.1:9/unused');
  const core = await makeCore(dataDir);
  const http = await startHttpServer(core, { token: TOKEN });
  try {
    const seedStarted = performance.now();
    const long = await seedTask(core, LONG);
    const seedMs = performance.now() - seedStarted;
    const short = await seedTask(core, SHORT);
    const base = http.url;
    // Let the checkpoint timer fold the seeding's WAL in, as it would in an app left idle for a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Appends first, before the reads below leave megabytes of garbage for the collector.
    const emptyTask = (await core.ctx.store.tasks.create({ id: newId('t'), mode: 'general', title: 'empty', description: '', model: null })).id;
    const appendEmpty = await timeAppends(core, emptyTask);
    const appendLong = await timeAppends(core, long);

    const firstPage = (taskId: string) => () => getJson(base, `/v1/tasks/${taskId}/messages`);
    const longPage = await timeRequests(firstPage(long));
    const shortPage = await timeRequests(firstPage(short));
    const longOpen = await timeRequests(openTask(base, long));
    const shortOpen = await timeRequests(openTask(base, short));
    const longAll = await timeRequests(allPages(base, long), 5);
    const shortAll = await timeRequests(allPages(base, short), 5);
    const longHistory = await timeRequests(async () => core.ctx.store.messages.all(long), 5);
    const shortHistory = await timeRequests(async () => core.ctx.store.messages.all(short), 5);

    const shape = `${LONG.toLocaleString('en-US')} messages (user, assistant with 2 tool calls, 2 tool results of 2-6 kB, answer; CJK + English)`;
    return [
      { name: 'first page of history, median', folio: longPage.median, baseline: shortPage.median, unit: 'ms', target: '< 100 ms', note: `GET /v1/tasks/:id/messages (the newest 100) over HTTP, ${REQUESTS} requests; ${shape}; baseline: a task with ${SHORT}` },
      { name: 'first page of history, p99', folio: longPage.p99, baseline: shortPage.p99, unit: 'ms', target: '< 100 ms', note: `worst of ${REQUESTS}` },
      { name: 'open a task (all its /v1 reads), median', folio: longOpen.median, baseline: shortOpen.median, unit: 'ms', target: '< 100 ms', note: 'GET task, then messages + runs + approvals + branches at once, as the renderer does' },
      { name: 'open a task (all its /v1 reads), p99', folio: longOpen.p99, baseline: shortOpen.p99, unit: 'ms', target: '< 100 ms' },
      { name: 'append a message, p99', folio: appendLong.p99, baseline: appendEmpty.p99, unit: 'ms', target: '< 1 ms', note: `store.messages.append as a run appends (assistant / tool result), ${APPENDS} appends; median ${appendLong.median.toFixed(3)} vs ${appendEmpty.median.toFixed(3)} ms; baseline: into an empty task` },
      { name: 'whole history over /v1, all pages', folio: longAll.median, baseline: shortAll.median, unit: 'ms', note: 'pages of 500 down to the first message (for information), median of 5' },
      { name: 'whole history in-process (run start)', folio: longHistory.median, baseline: shortHistory.median, unit: 'ms', note: `store.messages.all, read once when a run starts; seeding the ${LONG.toLocaleString('en-US')} took ${(seedMs / 1000).toFixed(1)} s` },
    ];
  } finally {
    await http.close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'history', run };
export default bench;
