// A run's tool calls and their named states (shared/contract/tool-calls.ts), persisted with the run
// (runs.state, on either store) as the loop moves them, so a resumed task, the UI and another worker
// of the team service read the same state. Writes are queued in order; the last one holds every call.
import { RunToolCalls, type ToolCallRecord, type ToolCallState } from '../../shared/contract/tool-calls';
import type { CallStatePort } from '../agent/call-states';
import type { StorePort } from '../store/port';

export class RunCallLog implements CallStatePort {
  private readonly calls: Record<string, ToolCallRecord> = {};
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: StorePort,
    private readonly runId: string,
  ) {}

  set(callId: string, name: string, state: ToolCallState): void {
    this.calls[callId] = { name, state, at: Date.now() };
    const snapshot: RunToolCalls = { tool_calls: { ...this.calls } };
    // A failed write costs the record of a state, never the run: the next write carries it again.
    this.writing = this.writing
      .then(() => this.store.runs.setState(this.runId, snapshot))
      .catch((err: unknown) => console.warn(`[folio] tool call state not recorded: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Resolves once every state reported so far is stored. */
  flushed(): Promise<void> {
    return this.writing;
  }
}

/** The tool calls a run recorded (none for a run that called no tool, or one from before states were kept). */
export async function readRunToolCalls(store: Pick<StorePort, 'runs'>, runId: string): Promise<RunToolCalls['tool_calls']> {
  const parsed = RunToolCalls.safeParse(await store.runs.getState(runId));
  return parsed.success ? parsed.data.tool_calls : {};
}
