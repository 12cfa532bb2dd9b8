// The named states of one tool call, after gemini-cli's core. Every call starts `validating` (its
// arguments parsed, its risk assessed), may wait in `awaiting_approval`, then runs (`executing`) and
// ends in exactly one final state. The loop moves each call through them, the run manager persists
// them with the run (runs.state), and whoever shows or resumes a call reads this one state.
import { z } from 'zod';

export const TOOL_CALL_STATES = ['validating', 'awaiting_approval', 'executing', 'done', 'denied', 'failed', 'cancelled'] as const;
export const ToolCallState = z.enum(TOOL_CALL_STATES);
export type ToolCallState = z.infer<typeof ToolCallState>;

/**
 * Where a call may go from each state. `denied`: the person said no, or the call is blocked and
 * never runs. `failed`: invalid arguments, an unknown tool, an error result, or a call interrupted
 * by a stop that may have partly run. `cancelled`: the run was cancelled before or while it ran.
 * A call cancelled while it waits for a yes stays `awaiting_approval`: its question is persisted and
 * asked again on Continue.
 */
export const TOOL_CALL_NEXT: Readonly<Record<ToolCallState, readonly ToolCallState[]>> = {
  validating: ['awaiting_approval', 'executing', 'denied', 'failed', 'cancelled'],
  awaiting_approval: ['executing', 'denied'],
  executing: ['done', 'failed', 'cancelled'],
  done: [],
  denied: [],
  failed: [],
  cancelled: [],
};

export const isFinalCallState = (state: ToolCallState): boolean => TOOL_CALL_NEXT[state].length === 0;

/** One call as the run records it. */
export const ToolCallRecord = z.object({ name: z.string(), state: ToolCallState, at: z.number().int() });
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

/** A run's calls by call id, in the order they were first seen: what runs.state holds. */
export const RunToolCalls = z.object({ tool_calls: z.record(z.string(), ToolCallRecord) });
export type RunToolCalls = z.infer<typeof RunToolCalls>;
