// The strings the app and the CLI both say, merged into each one's own: the error catalog
// (`errorKind`, `errorHelp`), the engines' reports (`report`: each finding's kind, explanation and
// sentence from its facts, the page count), the names of things (`providers`, `approvalModes`,
// `modelNames`) and how a tool call reads (`toolName`, `toolSummary`, `toolFailure`). English is
// here (every screen's fallback); Chinese is loaded on demand so the app's first chunk does not carry it.
// Strings only screens opened later need are in late-strings.ts.
import type { ErrorCatalog } from './errors';
import errorsEn from './errors/en.json';
import namesEn from './names/en.json';
import reportEn from './report/en.json';
import type { ToolCatalog } from './tools';
import toolsEn from './tools/en.json';

export const errorCatalogEn: ErrorCatalog = errorsEn;

export async function loadErrorCatalogZhCN(): Promise<ErrorCatalog> {
  const { default: zhCN } = await import('./errors/zh-CN.json');
  return zhCN;
}

export const toolCatalogEn: ToolCatalog = toolsEn;

export async function loadToolCatalogZhCN(): Promise<ToolCatalog> {
  const { default: zhCN } = await import('./tools/zh-CN.json');
  return zhCN;
}

export const sharedStringsEn = { ...errorCatalogEn, ...reportEn, ...namesEn, ...toolCatalogEn };

export async function loadSharedStringsZhCN(): Promise<typeof sharedStringsEn> {
  const [errors, { default: report }, { default: names }, tools] = await Promise.all([loadErrorCatalogZhCN(), import('./report/zh-CN.json'), import('./names/zh-CN.json'), loadToolCatalogZhCN()]);
  return { ...errors, ...report, ...names, ...tools };
}
