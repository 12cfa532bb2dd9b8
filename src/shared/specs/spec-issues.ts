// What is wrong with a deck spec, as data beside the English lines the model reads: the field's path
// as written in the spec ("slides[2].title"), the kind of problem, and the value it names (an unknown
// layout, the unknown field names). Each screen says them in its person's language.
import type { z } from 'zod';
import { ValidationError } from '../errors';

export const SPEC_PROBLEMS = ['missing', 'wrong_type', 'unknown_layout', 'unknown_fields', 'too_long', 'too_short', 'too_many', 'too_few', 'out_of_range', 'not_allowed', 'invalid'] as const;
export type SpecProblem = (typeof SPEC_PROBLEMS)[number];

export interface SpecIssue {
  /** Where, as written in the spec; '' for the spec as a whole. */
  path: string;
  problem: SpecProblem;
  /** The unknown layout or field names, as written. */
  value?: string;
}

/** The kind of problem a schema check's issue names. */
export function specProblem(issue: z.core.$ZodIssue, missing: boolean): SpecProblem {
  switch (issue.code) {
    case 'invalid_type':
      return missing ? 'missing' : 'wrong_type';
    case 'unrecognized_keys':
      return 'unknown_fields';
    case 'too_big':
      return issue.origin === 'string' ? 'too_long' : issue.origin === 'array' ? 'too_many' : 'out_of_range';
    case 'too_small':
      return issue.origin === 'string' ? 'too_short' : issue.origin === 'array' ? 'too_few' : 'out_of_range';
    case 'invalid_value':
      return 'not_allowed';
    default:
      return 'invalid';
  }
}

/** A deck spec that cannot be rendered: the English lines as the message, each as data in `issues`. */
export class DeckSpecError extends ValidationError {
  constructor(
    message: string,
    /** The spec file's name, when it came from one. */
    readonly file: string | null,
    readonly issues: readonly SpecIssue[],
  ) {
    super(message);
  }
}
