// Source extraction: PDFs, Office files, tables, text and images under a task's source/ folder,
// turned into page-marked markdown the agent can read and search by page.
export { ensureExtracted, readExtracted, sourceNotes, sourceStatus, EXTRACTOR_VERSION, type EnsureOptions } from './cache';
export { extractFile, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, scheduleExtractionPrewarm, type ExtractOptions } from './extract';
export { cachePathFor, isCacheFile, isExtractable, sourceOfCacheFile } from './kinds';
export { formatPageList, PageRangeError, pageOfEachLine, parsePageSpec, slicePages } from './pages';
export type { ExtractionResult, SourceInfo, SourceStatus } from './types';
