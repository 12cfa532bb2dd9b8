// What `folio probe` and the app's probe find, as data: each check by its id, what the profile
// declares and what the provider did as typed facts, so each screen says them in its person's
// language (src/shared/probe-text.ts); the core builds no sentence.
import { z } from 'zod';
import { errorCodes } from '../folio-error';
import { ReasoningMode } from './entities';

export const PROBE_CHECKS = ['chat', 'parallel_tools', 'thinking', 'reasoning_effort', 'reasoning:none', 'reasoning:thinking', 'reasoning:max', 'needle'] as const;
export const ProbeCheck = z.enum(PROBE_CHECKS);
export type ProbeCheck = z.infer<typeof ProbeCheck>;

/**
 * One side of a check. Declared: `reply` (the chat check expects one), `flag` (yes/no),
 * `thinking_mode`, `levels` (reasoning effort levels), `unsupported` (the setting is dropped and the
 * run goes on as `runs_as`), `sends` (the reasoning fields Folio sends, as it sends them) or
 * `provider_default`, `recall` (the needle's size). Observed: `replied` (the reply's start),
 * `empty_reply`, `error` (the first request failed), `tool_calls` (how many calls in one response),
 * `reasoning` (whether reasoning streamed, without thinking declared), `accepted` (the request was
 * taken; what reasoning did: streamed, not streamed, none, or streamed although off; `leaked`:
 * reasoning also streamed when it was disabled), `accepted_value`, `not_sent`, `found` / `missed`
 * (the needle, with the reply's start) and `rejected` (the provider refused the request; its words).
 */
export const ProbeFact = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reply') }),
  z.object({ kind: z.literal('flag'), value: z.boolean() }),
  z.object({ kind: z.literal('thinking_mode'), mode: z.enum(['none', 'always', 'toggle']) }),
  z.object({ kind: z.literal('levels'), levels: z.array(z.string()) }),
  z.object({ kind: z.literal('unsupported'), runs_as: ReasoningMode }),
  z.object({ kind: z.literal('sends'), fields: z.string() }),
  z.object({ kind: z.literal('provider_default') }),
  z.object({ kind: z.literal('recall'), tokens: z.number().int() }),
  z.object({ kind: z.literal('replied'), text: z.string() }),
  z.object({ kind: z.literal('empty_reply') }),
  z.object({ kind: z.literal('error'), code: z.enum(errorCodes) }),
  z.object({ kind: z.literal('tool_calls'), count: z.number().int() }),
  z.object({ kind: z.literal('reasoning'), streamed: z.boolean() }),
  z.object({ kind: z.literal('accepted'), reasoning: z.enum(['streamed', 'not_streamed', 'none', 'streamed_anyway']), leaked: z.boolean().optional() }),
  z.object({ kind: z.literal('accepted_value'), value: z.string() }),
  z.object({ kind: z.literal('not_sent') }),
  z.object({ kind: z.literal('found') }),
  z.object({ kind: z.literal('missed'), reply: z.string() }),
  z.object({ kind: z.literal('rejected'), message: z.string() }),
]);
export type ProbeFact = z.infer<typeof ProbeFact>;

export const ProbeRow = z.object({ check: ProbeCheck, declared: ProbeFact, observed: ProbeFact, ok: z.boolean() });
export type ProbeRow = z.infer<typeof ProbeRow>;

export const ProbeReport = z.object({
  profile: z.string(),
  rows: z.array(ProbeRow),
  error: z.string().optional(),
  /** The failure's code and error class, for an explanation in the person's language. */
  error_code: z.enum(errorCodes).optional(),
  error_name: z.string().optional(),
  exit_code: z.number().int(),
});
export type ProbeReport = z.infer<typeof ProbeReport>;
