// How a model profile or skill file finding reads (`configFinding`), for Settings and the CLI's
// "warning:" lines. A finding's sentence is chosen by `configFindingKey`, so a kind without a
// sentence in either language is a compile error where the catalog is loaded (late-strings.ts).
// This module holds no strings.
import type { ConfigFinding } from '../contract/config-findings';

export type ConfigFindingKey =
  | Exclude<ConfigFinding['kind'], 'invalid_yaml' | 'skill_invalid_yaml' | 'unknown_file_field'>
  | `${'invalid_yaml' | 'skill_invalid_yaml'}${'' | '_at'}`
  | 'unknown_file_field'
  | 'unknown_file_field_per_profile';

export function configFindingKey(finding: ConfigFinding): ConfigFindingKey {
  switch (finding.kind) {
    case 'invalid_yaml':
    case 'skill_invalid_yaml':
      return finding.line === null ? finding.kind : `${finding.kind}_at`;
    case 'unknown_file_field':
      return finding.per_profile ? 'unknown_file_field_per_profile' : 'unknown_file_field';
    default:
      return finding.kind;
  }
}

export interface ConfigFindingCatalog {
  configFinding: {
    /** Between field names in a list. */
    listSeparator: string;
    /** What stands for the fields when a check rejected the whole file. */
    wholeFile: string;
    sentence: Record<ConfigFindingKey, string>;
  };
}
