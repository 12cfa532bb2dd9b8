// PDF export of a rendered deck or document through LibreOffice (headless; see soffice.ts). The PDF
// is parsed to count pages before it is kept, since a PDF LibreOffice wrote is not proof it is whole.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import { FolioError, NotFoundError } from '../../shared/errors';
import { writeArtifactAtomic } from '../artifacts/write-artifact';
import { directWorker, loadPdfjs, textOnlyParams } from '../sources/formats/pdfjs-load';
import { resolveTaskPath, toRelative } from '../workspace/task-paths';
import { convertToPdf, sofficePath } from './soffice';

export const DEFAULT_EXPORT_TIMEOUT_MS = 120_000;

export const SOFFICE_MISSING_MESSAGE =
  'Exporting PDF needs LibreOffice: install libreoffice-impress and libreoffice-writer ' +
  '(Debian/Ubuntu: apt-get install libreoffice-impress libreoffice-writer; macOS: brew install --cask libreoffice; ' +
  'Windows: https://www.libreoffice.org/download).';

const EXPORTABLE = new Set(['.pptx', '.docx']);

export interface ExportPdfOptions {
  /** Kill LibreOffice after this long (default 120 s). */
  timeoutMs?: number;
  /** Folders the sandboxed conversion must not see (the data folder: keys, other tasks). */
  hiddenPaths?: readonly string[];
  /** A deck as notes pages (each slide above its speaker notes), written as `<name>-notes.pdf`. */
  notes?: boolean;
}

/**
 * Impress's PDF filter writing notes pages only: one portrait page per slide, the slide above its
 * notes, which is what a presenter prints. (ExportNotesPages alone appends them after the slides.)
 */
export const NOTES_PAGES_FILTER = `impress_pdf_Export:${JSON.stringify({
  ExportNotesPages: { type: 'boolean', value: 'true' },
  ExportOnlyNotesPages: { type: 'boolean', value: 'true' },
})}`;

export interface ExportPdfResult {
  /** The PDF, relative to the task folder (next to its source, versioned: never overwrites). */
  path: string;
  pages: number;
}

/** Converts `artifacts/….pptx|.docx` to a PDF beside it (a deck optionally as notes pages); returns the PDF's task-relative path and page count. */
export async function exportPdf(taskRoot: string, relPath: string, opts: ExportPdfOptions = {}): Promise<ExportPdfResult> {
  const { abs, rel, area } = resolveTaskPath({ task: taskRoot, work: taskRoot }, relPath, { access: 'read' });
  if (area !== 'artifact' || !EXPORTABLE.has(extname(abs).toLowerCase())) {
    throw new FolioError('invalid_input', `Only .pptx and .docx files in artifacts/ can be exported to PDF (got ${rel}).`);
  }
  if (opts.notes && extname(abs).toLowerCase() !== '.pptx') throw new FolioError('invalid_input', `Only decks (.pptx) have notes pages (got ${rel}).`);
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new NotFoundError(`No file ${rel} in this task`);
  if (!sofficePath()) throw new FolioError('unsupported', SOFFICE_MISSING_MESSAGE);

  const filter = opts.notes ? { filter: NOTES_PAGES_FILTER } : {};
  const bytes = await convertToPdf(abs, { timeoutMs: opts.timeoutMs ?? DEFAULT_EXPORT_TIMEOUT_MS, label: rel, hiddenPaths: opts.hiddenPaths, ...filter });
  const pages = await countPdfPages(bytes, rel);
  const written = writeArtifactAtomic(dirname(abs), `${basename(abs, extname(abs))}${opts.notes ? '-notes' : ''}.pdf`, bytes);
  return { path: toRelative(taskRoot, written), pages };
}

async function countPdfPages(data: Uint8Array, rel: string): Promise<number> {
  // Through the same loader as extraction: pdfjs imported bare would leave its slow
  // Array.prototype.push polyfill in this (main) thread and load @napi-rs/canvas for nothing.
  const pdfjs = await loadPdfjs();
  const worker = directWorker(pdfjs);
  try {
    // pdfjs transfers the buffer to its worker; give it a copy so `data` can still be written out.
    const doc = await pdfjs.getDocument(textOnlyParams(pdfjs, data.slice(), worker)).promise;
    try {
      return doc.numPages;
    } finally {
      await doc.destroy();
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new FolioError('tool_error', `LibreOffice could not convert ${rel}: the PDF it wrote is unreadable (${message}).`);
  } finally {
    worker?.destroy();
  }
}
