// Strings only screens opened later need (a probe's findings, what is wrong with a model profile or
// skill file, an imported template's warnings), loaded on demand in both languages: the app merges
// them in when such a screen first opens (src/renderer/i18n/late-strings.ts), the CLI at start.
// Nothing in the app's first chunk imports this module, so that chunk carries none of them.
import type { ConfigFindingCatalog } from './config-findings';
import type { ProbeCatalog } from './probe';
import type { TemplateWarningCatalog } from './template-warnings';

/** The strings of screens opened later, in one language. */
export type LateStrings = ProbeCatalog & ConfigFindingCatalog & TemplateWarningCatalog;

type Catalogs = [ProbeCatalog, ConfigFindingCatalog, TemplateWarningCatalog];

export async function loadLateStrings(language: 'en' | 'zh-CN'): Promise<LateStrings> {
  const [probe, config, templates]: Catalogs =
    language === 'en'
      ? await Promise.all([import('./probe/en.json').then((m) => m.default), import('./config/en.json').then((m) => m.default), import('./templates/en.json').then((m) => m.default)])
      : await Promise.all([import('./probe/zh-CN.json').then((m) => m.default), import('./config/zh-CN.json').then((m) => m.default), import('./templates/zh-CN.json').then((m) => m.default)]);
  return { ...probe, ...config, ...templates };
}
