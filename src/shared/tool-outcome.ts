// How a tool call shows to a person, read from its named state (contract/tool-calls.ts). Results that
// say a call never ran because of the person (denied, superseded) are also worded here: the text is
// what the model reads.
import type { ToolCallState } from './contract/tool-calls';

export const DENIED_RESULT = 'The person denied this call.';
export const NOT_RUN_NEW_MESSAGE = 'Not run: the person sent a new message before this call was approved or finished.';
export const NOT_RUN_REPLACED = 'Not run: the person replaced this reply (regenerated it or edited their message) before this call was approved or finished.';

export type ToolOutcome = 'ok' | 'error' | 'denied' | 'not-run';
export type ToolCardState = 'running' | 'approval' | ToolOutcome;

const OUTCOME_OF_STATE: Readonly<Record<ToolCallState, ToolCardState>> = {
  validating: 'running',
  awaiting_approval: 'approval',
  executing: 'running',
  done: 'ok',
  denied: 'denied',
  failed: 'error',
  cancelled: 'not-run',
};

/**
 * What a call's card says: its persisted state when there is one. A call without (a run from before
 * states were kept, a step inside a skill's sub-agent) falls back to its result's text, and while
 * it has no result, to whether an approval card waits for it.
 */
export function toolCardState(state: ToolCallState | null | undefined, result: { isError: boolean; preview: string } | null, awaitingApproval = false): ToolCardState {
  if (state) {
    const shown = OUTCOME_OF_STATE[state];
    // A result settles a call whatever an older record said (a live card before its final event).
    if (result === null || (shown !== 'running' && shown !== 'approval')) return shown;
  }
  if (result === null) return awaitingApproval ? 'approval' : 'running';
  return toolOutcome(result);
}

/** How a finished call without a recorded state ended, from its result's text. */
export function toolOutcome(result: { isError: boolean; preview: string }): ToolOutcome {
  if (!result.isError) return 'ok';
  if (result.preview.startsWith(DENIED_RESULT)) return 'denied';
  if (result.preview.startsWith(NOT_RUN_NEW_MESSAGE) || result.preview.startsWith(NOT_RUN_REPLACED)) return 'not-run';
  return 'error';
}
