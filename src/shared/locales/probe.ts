// How a probe's findings read (`probeReport`): the table's columns and statuses, each check's name
// and each fact's sentence, for the app's probe table and `folio probe`. A fact's key is chosen by
// `probeFactKey`, so a fact kind without a sentence in either language is a compile error where the
// catalog is loaded (shared-strings.ts). This module holds no strings.
import type { ProbeCheck, ProbeFact } from '../contract/probe';

/** i18next reads ":" as a namespace separator: a check's key has "_" in its place. */
export type ProbeCheckKey = ProbeCheck extends infer C ? (C extends `${infer A}:${infer B}` ? `${A}_${B}` : C) : never;

export function probeCheckKey(check: ProbeCheck): ProbeCheckKey {
  return check.replace(':', '_') as ProbeCheckKey;
}

export type ProbeFactKey =
  | 'reply'
  | `flag_${'yes' | 'no'}`
  | `thinking_mode_${Extract<ProbeFact, { kind: 'thinking_mode' }>['mode']}`
  | 'levels'
  | 'unsupported'
  | 'sends'
  | 'provider_default'
  | 'recall'
  | 'replied'
  | 'empty_reply'
  | 'error'
  | `tool_calls_${'several' | 'one' | 'none'}`
  | `reasoning_${'streamed' | 'quiet'}`
  | `accepted_${Extract<ProbeFact, { kind: 'accepted' }>['reasoning']}`
  | 'accepted_leaked'
  | 'accepted_value'
  | 'not_sent'
  | 'found'
  | 'missed'
  | 'rejected';

/** The sentence a fact is said with (its values are the fact's own fields). */
export function probeFactKey(fact: ProbeFact): Exclude<ProbeFactKey, 'accepted_leaked'> {
  switch (fact.kind) {
    case 'flag':
      return fact.value ? 'flag_yes' : 'flag_no';
    case 'thinking_mode':
      return `thinking_mode_${fact.mode}`;
    case 'tool_calls':
      return fact.count >= 2 ? 'tool_calls_several' : fact.count === 1 ? 'tool_calls_one' : 'tool_calls_none';
    case 'reasoning':
      return fact.streamed ? 'reasoning_streamed' : 'reasoning_quiet';
    case 'accepted':
      return `accepted_${fact.reasoning}`;
    default:
      return fact.kind;
  }
}

export interface ProbeCatalog {
  probeReport: {
    title: string;
    columns: Record<'check' | 'declared' | 'observed' | 'result', string>;
    status: Record<'ok' | 'mismatch', string>;
    check: Record<ProbeCheckKey, string>;
    fact: Record<ProbeFactKey, string>;
  };
}
