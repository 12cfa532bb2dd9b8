// The loop's side of the named tool-call states (shared/contract/tool-calls.ts): each transition is
// checked against the table before it is reported, so a state the table does not allow is a bug
// found at once, not a card that shows the wrong thing.
import { isFinalCallState, TOOL_CALL_NEXT, type ToolCallState } from '../../shared/contract/tool-calls';

/** Where the loop reports each call's state (the run manager persists it with the run). */
export interface CallStatePort {
  set(callId: string, name: string, state: ToolCallState): void;
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

  move(callId: string, name: string, to: ToolCallState): void {
    const from = this.states.get(callId);
    // Providers reuse ids such as `call_0` in later turns: a finished call's id may start a new call.
    const starts = to === 'validating' && (from === undefined || isFinalCallState(from));
    if (!starts && (from === undefined || !TOOL_CALL_NEXT[from].includes(to))) throw new IllegalCallTransition(callId, from, to);
    this.states.set(callId, to);
    this.port?.set(callId, name, to);
  }

  get(callId: string): ToolCallState | undefined {
    return this.states.get(callId);
  }
}
