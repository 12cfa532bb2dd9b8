// Agent loop overhead: the loop's own cost per tool round trip (model turn → tool call → result
// persisted → next turn) with a model that answers instantly, so only Folio's code is timed.
// Once with an in-memory conversation, once with the real SQLite store behind it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { FinishReason, RunEventBody, ToolCall } from '../src/shared/contract';
import { createMemoryConversation } from '../src/main/agent/memory-conversation';
import { createStoreConversation } from '../src/main/agent/store-conversation';
import { runAgentLoop, type AgentLoopDeps, type ApprovalPort, type ConversationPort } from '../src/main/agent/loop';
import type { ChatModel, ChatStreamEvent } from '../src/main/llm/types';
import { openStore } from '../src/main/store';
import { sqlitePort } from '../src/main/store/sqlite-port';
import { ToolRegistry } from '../src/main/tools/registry';
import { NO_PATHS, type Tool } from '../src/main/tools/types';
import { elapsedMs, median } from './stats';
import { formatNumber } from './table';
import { type Bench, type BenchRow } from './types';

const TURNS = 200;
const RUNS = 5;

/** Answers every turn at once: one tool call for `turns` turns, then a final answer. */
class InstantModel implements ChatModel {
  private turn = 0;
  constructor(private readonly turns: number) {}
  async *stream(): AsyncIterable<ChatStreamEvent> {
    this.turn += 1;
    const toolCalls: ToolCall[] = this.turn <= this.turns ? [{ id: `call_${this.turn}`, name: 'lookup', arguments: JSON.stringify({ key: `k${this.turn}` }) }] : [];
    yield {
      type: 'done',
      content: toolCalls.length > 0 ? '' : 'All done.',
      reasoning: null,
      toolCalls,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      usage: { promptTokens: 10, completionTokens: 5 },
    };
  }
}

const lookupTool: Tool<z.ZodObject<{ key: z.ZodString }>> = {
  name: 'lookup',
  description: 'Returns the value stored under a key.',
  traits: { kind: 'read', runsCode: false, network: false, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
  parameters: z.object({ key: z.string() }),
  async execute(args) {
    return { content: `value of ${args.key}` };
  },
};

const approvals: ApprovalPort = {
  mode: async () => 'auto',
  isGranted: async () => true,
  isAlwaysAllowed: async () => false,
  pending: async () => undefined,
  persist: async () => undefined,
  wait: async () => ({ decision: 'allow_once' }),
  settle: async () => undefined,
  grant: async () => undefined,
};

function memoryConversation(): ConversationPort {
  const { push, port } = createMemoryConversation();
  push({ role: 'user', content: 'Look up every key.' });
  return port;
}

/** The same wiring create-core uses: every message goes through the store (createStoreConversation). */
async function storeConversation(dir: string): Promise<{ conversation: ConversationPort; close: () => void }> {
  const store = openStore(join(dir, 'folio.db'));
  const task = store.tasks.create({ id: 'task_bench', mode: 'general', title: 'bench', description: '', model: null });
  const run = store.runs.create({ id: 'run_bench', task_id: task.id, model: null });
  let n = 0;
  const id = () => `m_bench_${++n}`;
  store.messages.append({ id: id(), task_id: task.id, run_id: run.id, role: 'user', content: 'Look up every key.' });
  return {
    conversation: await createStoreConversation(sqlitePort(store), task.id, run.id, id),
    close: () => store.close(),
  };
}

/** Drains the loop, noting when each tool result arrived (performance.now()). */
async function drain(gen: AsyncGenerator<RunEventBody, FinishReason>): Promise<{ reason: FinishReason; resultTimes: number[] }> {
  const resultTimes: number[] = [];
  for (;;) {
    const next = await gen.next();
    if (next.done) return { reason: next.value, resultTimes };
    if (next.value.type === 'tool_result') resultTimes.push(performance.now());
  }
}

interface RunTiming {
  /** Mean over all TURNS round trips. */
  perTurnMs: number;
  firstTurnsMs: number;
  lastTurnsMs: number;
}

const EDGE = 20;

/** Times one run of TURNS tool turns; also the mean of the first and last EDGE turns, to show growth. */
async function timeRun(conversation: ConversationPort, root: string): Promise<RunTiming> {
  const tools = new ToolRegistry();
  tools.register(lookupTool);
  const deps: AgentLoopDeps = {
    model: new InstantModel(TURNS),
    tools,
    conversation,
    approvals,
    systemPrompt: 'You are a benchmark.',
    // A context budget large enough that compaction never kicks in: only the loop itself is timed.
    limits: { maxIterations: TURNS + 1, reliableContext: 10_000_000, price: { input: 1, output: 2 } },
    toolContext: { root, taskId: 't1', runId: 'r1', outbound: null },
  };
  const started = performance.now();
  const { reason, resultTimes } = await drain(runAgentLoop(deps, new AbortController().signal));
  const ms = elapsedMs(started);
  if (reason !== 'done' || resultTimes.length !== TURNS) throw new Error(`loop ended with ${reason} after ${resultTimes.length} tool results`);
  const times = [started, ...resultTimes];
  return {
    perTurnMs: ms / TURNS,
    firstTurnsMs: (times[EDGE] - times[0]) / EDGE,
    lastTurnsMs: (times[TURNS] - times[TURNS - EDGE]) / EDGE,
  };
}

async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'folio-bench-loop-'));
  try {
    await timeRun(memoryConversation(), root); // warm-up: JIT and the first zod schema conversion
    const memory: RunTiming[] = [];
    for (let i = 0; i < RUNS; i++) memory.push(await timeRun(memoryConversation(), root));

    const stored: RunTiming[] = [];
    for (let i = 0; i < RUNS; i++) {
      const dir = mkdtempSync(join(root, 'store-'));
      const { conversation, close } = await storeConversation(dir);
      try {
        stored.push(await timeRun(conversation, root));
      } finally {
        close();
      }
    }
    const memoryMs = median(memory.map((t) => t.perTurnMs));
    const storedMs = median(stored.map((t) => t.perTurnMs));
    const growth = (timings: RunTiming[]) =>
      `turns 1–${EDGE}: ${formatNumber(median(timings.map((t) => t.firstTurnsMs)))} ms, turns ${TURNS - EDGE + 1}–${TURNS}: ${formatNumber(median(timings.map((t) => t.lastTurnsMs)))} ms`;
    return [
      {
        name: `round trip, in-memory conversation (N=${TURNS})`,
        folio: memoryMs,
        baseline: null,
        unit: 'ms',
        target: '< 2 ms',
        note: `median of ${RUNS} runs; instant fake model, one read tool call per turn; ${growth(memory)}`,
      },
      {
        name: `round trip, SQLite store (N=${TURNS})`,
        folio: storedMs,
        baseline: memoryMs,
        unit: 'ms',
        target: '< 2 ms',
        note: `baseline = in-memory loop; history read once per run, every message appended to SQLite: ${growth(stored)}`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'loop', run };
export default bench;
