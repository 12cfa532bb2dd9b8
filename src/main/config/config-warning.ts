// A problem found in a model profile or skill file, as the service hands it out: the typed finding
// for screens to word, and the same said in English (from the shared catalog, the one place its
// wording lives) with the checker's detail, for logs and API clients.
import type { ConfigFinding, ConfigWarning } from '../../shared/contract';
import { configFindingText } from '../../shared/config-finding-text';
import en from '../../shared/locales/config/en.json';
import type { ConfigFindingCatalog } from '../../shared/locales/config-findings';

const english: ConfigFindingCatalog = en;

function sayEnglish(key: string, values: Record<string, string | number>): string {
  const template: unknown = key.split('.').reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), english);
  if (typeof template !== 'string') return key;
  return template.replace(/\{\{(\w+)\}\}/gu, (_, name: string) => String(values[name] ?? ''));
}

export function configWarning(source: string, finding: ConfigFinding, detail?: string): ConfigWarning {
  return { source, finding, ...(detail ? { detail } : {}), message: configFindingText(finding, detail, sayEnglish) };
}

/** Where a YAML parser's error points (1-based), if it says. */
export function yamlErrorLine(err: unknown): number | null {
  const pos = (err as { linePos?: { line?: unknown }[] } | null)?.linePos?.[0]?.line;
  return typeof pos === 'number' ? pos : null;
}
