// A model profile or skill file finding in the person's language, for Settings and the CLI: the
// sentence for its kind (src/shared/locales/config), with the names it carries. The English
// sentences also carry the checker's own detail; other languages name the rejected fields instead.
import type { ConfigFinding } from './contract/config-findings';
import { configFindingKey } from './locales/config-findings';
import type { Say } from './locales/say';

export function configFindingText(finding: ConfigFinding, detail: string | undefined, t: Say): string {
  const values: Record<string, string | number> = { detail: detail ?? '' };
  for (const [name, value] of Object.entries(finding)) {
    if (typeof value === 'string' || typeof value === 'number') values[name] = value;
  }
  if ('fields' in finding) {
    values.fields = finding.fields.length > 0 ? finding.fields.join(t('configFinding.listSeparator', {})) : t('configFinding.wholeFile', {});
  }
  return t(`configFinding.sentence.${configFindingKey(finding)}`, values);
}
