// The loop's side of the named tool-call states (shared/contract/tool-calls.ts): each transition is
// checked against the table before it is reported, so a state the table does not allow is a bug
// found at once, not a card that shows the wrong thing.
import { callKey, TOOL_CALL_NEXT, type ToolCallState, type ToolResultFacts } from '../../shared/contract/tool-calls';

/** One call: the assistant message that made it, its id there, the tool's name. */
export interface CallRef {
  messageId: string;
  callId: string;
  name: string;
}

/** Where the loop reports each call's state (the run manager persists it with the run). */
export interface CallStatePort {
  /** `facts`: with a final state, why the call failed and what a program printed (kept with the state). */
  set(call: CallRef, state: ToolCallState, facts?: ToolResultFacts): void;
  /** The states earlier runs of the task persisted, by callKey: what a resumed run reads. */
  recorded?(): Promise<ReadonlyMap<string, ToolCallState>>;
}

export class IllegalCallTransition extends Error {
  constructor(callId: string, from: ToolCallState | undefined, to: ToolCallState) {
    super(`Tool call ${callId} cannot go from ${from ?? '(new)'} to ${to}`);
    this.name = 'IllegalCallTransition';
  }
}

/** Tracks one loop's calls and reports each legal transition to `port`. */
export class CallStates {
  private readonly states = new Map<string, ToolCallState>();

  constructor(private readonly port?: CallStatePort) {}

  move(call: CallRef, to: ToolCallState, facts?: ToolResultFacts): void {
    const key = callKey(call.messageId, call.callId);
    const from = this.states.get(key);
    const starts = to === 'validating' && from === undefined;
    if (!starts && (from === undefined || !TOOL_CALL_NEXT[from].includes(to))) throw new IllegalCallTransition(call.callId, from, to);
    this.states.set(key, to);
    this.port?.set(call, to, facts);
  }

  get(call: Pick<CallRef, 'messageId' | 'callId'>): ToolCallState | undefined {
    return this.states.get(callKey(call.messageId, call.callId));
  }
}
