// How a tool call reads to a person, held once for the app's tool cards and the CLI's chat: each
// tool's name (`toolName`), what a finished call did (`toolSummary`) and why a failed one failed
// (`toolFailure`, one sentence per ToolFailure kind, and one naming the file for the kinds that
// carry one). The type makes a failure kind without a sentence in either language a compile error
// where the catalog is loaded (shared-strings.ts).
import type { ToolFailureKind } from '../contract/tool-calls';
import type toolsEn from './tools/en.json';

/** Failure kinds whose sentence names the file when the failure carries one. */
export const FAILURES_NAMING_A_PATH = ['not_found', 'too_large', 'not_allowed', 'invalid_spec'] as const satisfies readonly ToolFailureKind[];
type PathFailureKey = `${(typeof FAILURES_NAMING_A_PATH)[number]}_path`;

export interface ToolCatalog {
  toolName: Record<keyof (typeof toolsEn)['toolName'], string>;
  toolSummary: Record<keyof (typeof toolsEn)['toolSummary'], string>;
  toolFailure: Record<ToolFailureKind | PathFailureKey, string>;
}
