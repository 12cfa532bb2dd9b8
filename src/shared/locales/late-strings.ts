// Strings only screens opened later need (a probe's findings), loaded on demand in both languages:
// the app merges them in when such a screen first opens (src/renderer/i18n/late-strings.ts), the CLI
// at start. Nothing in the app's first chunk imports this module, so that chunk carries none of them.
import type { ProbeCatalog } from './probe';

/** The strings of screens opened later, in one language. */
export type LateStrings = ProbeCatalog;

export async function loadLateStrings(language: 'en' | 'zh-CN'): Promise<LateStrings> {
  const probe: ProbeCatalog = language === 'en' ? (await import('./probe/en.json')).default : (await import('./probe/zh-CN.json')).default;
  return { ...probe };
}
