// A run's tool calls and their named states (shared/contract/tool-calls.ts), persisted with the run
// (runs.state, on either store) as the loop moves them, so a resumed task, the UI (Run.tool_calls)
// and another worker of the team service read the same state. Writes are queued in order; the last
// one holds every call.
import { callKey, callStatesOf, type RunToolCalls, type ToolCallRecord, type ToolCallState, type ToolResultFacts } from '../../shared/contract/tool-calls';
import type { CallRef, CallStatePort } from '../agent/call-states';
import type { StorePort } from '../store/port';

export class RunCallLog implements CallStatePort {
  private readonly calls: Record<string, ToolCallRecord> = {};
  private writing: Promise<void> = Promise.resolve();

  /** `settled`: calls the run's start already ended (the ones a new message left unanswered), stored with the run. */
  constructor(
    private readonly store: StorePort,
    private readonly run: { id: string; taskId: string },
    settled: readonly ToolCallRecord[] = [],
  ) {
    for (const record of settled) this.calls[callKey(record.message_id, record.call_id)] = record;
  }

  set(call: CallRef, state: ToolCallState, facts: ToolResultFacts = {}): void {
    this.calls[callKey(call.messageId, call.callId)] = { message_id: call.messageId, call_id: call.callId, name: call.name, state, at: Date.now(), ...facts };
    const snapshot: RunToolCalls = { tool_calls: { ...this.calls } };
    // A failed write costs the record of a state, never the run: the next write carries it again.
    this.writing = this.writing
      .then(() => this.store.runs.setState(this.run.id, snapshot))
      .catch((err: unknown) => console.warn(`[folio] tool call state not recorded: ${err instanceof Error ? err.message : String(err)}`));
  }

  async recorded(): Promise<ReadonlyMap<string, ToolCallState>> {
    const runs = (await this.store.runs.list(this.run.taskId)).filter((r) => r.id !== this.run.id);
    return new Map([...callStatesOf(runs)].map(([key, record]) => [key, record.state]));
  }

  /** Resolves once every state reported so far is stored. */
  flushed(): Promise<void> {
    return this.writing;
  }
}
