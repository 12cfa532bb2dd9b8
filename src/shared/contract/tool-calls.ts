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

/**
 * Why a call failed, as data: each client says it in its person's language, while the model reads
 * the tool's own English text. `path` names a file as the model did (relative to the task), `code`
 * is a program's exit code, `seconds` the time limit that ran out.
 */
export const TOOL_FAILURE_KINDS = [
  'not_found',
  'outside_task',
  'not_allowed',
  'too_large',
  'timed_out',
  'exit_code',
  'killed',
  'network_refused',
  'network_unreachable',
  'invalid_arguments',
  'unknown_tool',
  'invalid_spec',
  'denied',
  'blocked',
  'cancelled',
  'interrupted',
  'failed',
] as const;
export const ToolFailureKind = z.enum(TOOL_FAILURE_KINDS);
export type ToolFailureKind = z.infer<typeof ToolFailureKind>;
export const ToolFailure = z.object({
  kind: ToolFailureKind,
  path: z.string().optional(),
  code: z.number().int().optional(),
  seconds: z.number().optional(),
  /** invalid_spec: how many problems the spec has. */
  count: z.number().int().optional(),
});
export type ToolFailure = z.infer<typeof ToolFailure>;

/**
 * A program's run (shell, run_python, run_script) as a person reads it: the result starts with what
 * the program printed (`output_chars` characters), and Folio's lines for the model follow it. A long
 * output keeps its head and tail, with Folio's note between them at `omitted` (character offsets in
 * the result) saying how many bytes were left out.
 */
export const ProgramFacts = z.object({
  output_chars: z.number().int().nonnegative(),
  omitted: z.object({ from: z.number().int(), to: z.number().int(), bytes: z.number().int() }).optional(),
  /** The program seems to have wanted the network, which was off for it. */
  network_off: z.boolean().optional(),
});
export type ProgramFacts = z.infer<typeof ProgramFacts>;

/** What a finished call's result says as data, beside its text for the model. */
export const ToolResultFacts = z.object({ failure: ToolFailure.optional(), program: ProgramFacts.optional() });
export type ToolResultFacts = z.infer<typeof ToolResultFacts>;

/** One call as the run records it: the assistant message that made it and the call's id there, and its result's facts once it ended. */
export const ToolCallRecord = z.object({
  message_id: z.string(),
  call_id: z.string(),
  name: z.string(),
  state: ToolCallState,
  at: z.number().int(),
  ...ToolResultFacts.shape,
});
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
