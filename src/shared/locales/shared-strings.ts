// The strings the app and the CLI both say, merged into each one's own: the error catalog
// (`errorKind`, `errorHelp`) and the engines' reports (`report`: each finding's kind, explanation and
// sentence from its facts, the page count). English is here (every screen's fallback); Chinese is
// loaded on demand so the app's first chunk does not carry it.
import { errorCatalogEn, loadErrorCatalogZhCN } from './errors';
import reportEn from './report/en.json';

export const sharedStringsEn = { ...errorCatalogEn, ...reportEn };

export async function loadSharedStringsZhCN(): Promise<typeof sharedStringsEn> {
  const [errors, { default: report }] = await Promise.all([loadErrorCatalogZhCN(), import('./report/zh-CN.json')]);
  return { ...errors, ...report };
}
