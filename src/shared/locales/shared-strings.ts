// The strings the app and the CLI both say, merged into each one's own: the error catalog
// (`errorKind`, `errorHelp`), the engines' reports (`report`: each finding's kind, explanation and
// sentence from its facts, the page count) and the names of things (`providers`, `approvalModes`,
// `modelNames`). English is here (every screen's fallback); Chinese is
// loaded on demand so the app's first chunk does not carry it.
import type { ErrorCatalog } from './errors';
import errorsEn from './errors/en.json';
import namesEn from './names/en.json';
import reportEn from './report/en.json';

export const errorCatalogEn: ErrorCatalog = errorsEn;

export async function loadErrorCatalogZhCN(): Promise<ErrorCatalog> {
  const { default: zhCN } = await import('./errors/zh-CN.json');
  return zhCN;
}

export const sharedStringsEn = { ...errorCatalogEn, ...reportEn, ...namesEn };

export async function loadSharedStringsZhCN(): Promise<typeof sharedStringsEn> {
  const [errors, { default: report }, { default: names }] = await Promise.all([loadErrorCatalogZhCN(), import('./report/zh-CN.json'), import('./names/zh-CN.json')]);
  return { ...errors, ...report, ...names };
}
