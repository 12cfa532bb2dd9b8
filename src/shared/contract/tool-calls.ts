// The named states of one tool call, after gemini-cli's core. Every call starts `validating` (its
// arguments parsed, its risk assessed), may wait in `awaiting_approval`, then runs (`executing`) and
// ends in exactly one final state. The loop moves each call through them, the run manager persists
// them with the run (runs.state, handed out as Run.tool_calls), and whoever shows or resumes a call
// reads this one state through callStatesOf.
import { z } from 'zod';

export const TOOL_CALL_STATES = ['validating', 'awaiting_approval', 'executing', 'done', 'denied', 'failed', 'cancelled'] as const;
export const ToolCallState = z.enum(TOOL_CALL_STATES);
export type ToolCallState = z.infer<typeof ToolCallState>;

/**
 * Where a call may go from each state. `denied`: the person said no, or the call is blocked and
 * never runs. `failed`: invalid arguments, an unknown tool, an error result, or a call interrupted
 * while it ran (a stop, a killed process): it may have partly run. `cancelled`: the call never ran
 * (the run was cancelled first, or the person sent a new message before it was approved).
 * A call cancelled while it waits for a yes stays `awaiting_approval`: its question is persisted and
 * asked again on Continue.
 */
export const TOOL_CALL_NEXT: Readonly<Record<ToolCallState, readonly ToolCallState[]>> = {
  validating: ['awaiting_approval', 'executing', 'denied', 'failed', 'cancelled'],
  awaiting_approval: ['executing', 'denied'],
  executing: ['done', 'failed'],
  done: [],
  denied: [],
  failed: [],
  cancelled: [],
};

export const isFinalCallState = (state: ToolCallState): boolean => TOOL_CALL_NEXT[state].length === 0;

/** One call as the run records it: the assistant message that made it and the call's id there. */
export const ToolCallRecord = z.object({ message_id: z.string(), call_id: z.string(), name: z.string(), state: ToolCallState, at: z.number().int() });
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

/**
 * A call's key: providers reuse ids such as `call_0` in later turns, so an id alone names a call
 * only together with the message that made it.
 */
export const callKey = (messageId: string, callId: string): string => `${messageId}/${callId}`;

/** A run's calls by callKey: what runs.state holds. */
export const RunToolCalls = z.object({ tool_calls: z.record(z.string(), ToolCallRecord) });
export type RunToolCalls = z.infer<typeof RunToolCalls>;

/**
 * Every call's latest state over a task's runs (any order): a call resumed by a later run (asked
 * again, or found interrupted) has that run's state. The one reading of persisted call states.
 */
export function callStatesOf(runs: readonly { started_at: number; tool_calls: RunToolCalls['tool_calls'] }[]): Map<string, ToolCallRecord> {
  const out = new Map<string, ToolCallRecord>();
  for (const run of [...runs].sort((a, b) => a.started_at - b.started_at)) {
    for (const [key, record] of Object.entries(run.tool_calls)) {
      const before = out.get(key);
      if (!before || before.at <= record.at) out.set(key, record);
    }
  }
  return out;
}
