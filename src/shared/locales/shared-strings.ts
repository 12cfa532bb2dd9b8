// The strings the app and the CLI both say, merged into each one's own: the error catalog
// (`errorKind`, `errorHelp`), the engines' reports (`report`: each finding's kind, explanation and
// sentence from its facts, the page count) and the names of things (`providers`, `approvalModes`,
// `modelNames`). English is here (every screen's fallback); Chinese is
// loaded on demand so the app's first chunk does not carry it.
import { errorCatalogEn, loadErrorCatalogZhCN } from './errors';
import namesEn from './names/en.json';
import reportEn from './report/en.json';

export const sharedStringsEn = { ...errorCatalogEn, ...reportEn, ...namesEn };

export async function loadSharedStringsZhCN(): Promise<typeof sharedStringsEn> {
  const [errors, { default: report }, { default: names }] = await Promise.all([loadErrorCatalogZhCN(), import('./report/zh-CN.json'), import('./names/zh-CN.json')]);
  return { ...errors, ...report, ...names };
}
