// Shared shapes of source extraction: what the worker returns and what the cache reports.

export type ExtractionStatus = 'ok' | 'scanned' | 'image' | 'error';

export interface ExtractionResult {
  status: ExtractionStatus;
  /** Page-marked markdown (`<!-- page N -->` before each page); empty for images and errors. */
  markdown: string;
  pages: number | null;
  title?: string;
  /** Why extraction failed, or a note on a partial success (e.g. a renamed file, unreadable pages). */
  message?: string;
  /** Facts about the worker that did the work; tests and the benchmark use them. */
  worker?: WorkerDiagnostics;
}

export interface WorkerDiagnostics {
  /** The worker that read the file (and, for a PDF, its head). */
  threadId: number;
  /** How many worker threads extracted pages of this file (a large PDF is split across two). */
  threads: number;
  /** Peak resident set of the whole process as the worker saw it at the end (threads share one RSS). */
  maxRssBytes: number;
  /** Peak V8 heap of a worker's own isolate during this extraction (the larger, when split). */
  peakHeapBytes: number;
}

export type SourceStatus = 'pending' | ExtractionStatus;

export interface SourceInfo {
  /** Root-relative path of the source, e.g. `source/report.pdf`. */
  path: string;
  status: SourceStatus;
  pages: number | null;
  message: string | null;
  /** Root-relative path of the page-marked markdown, or null when there is none (images, errors, pending). */
  cache_path: string | null;
}

/** What a file's bytes say it is, whatever its name claims. */
export type SourceKind = 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'csv' | 'tsv' | 'text' | 'image';

export type ProgressFn = (done: number, total: number | null) => void;
