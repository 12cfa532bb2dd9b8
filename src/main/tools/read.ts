// read: numbered lines of a text file, paged so the model can ask for the rest. Sources (PDF, DOCX,
// PPTX, XLSX, CSV, non-UTF-8 text under source/) are read through their extracted, page-marked
// markdown, and can be read by page.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ensureExtracted, formatPageList, isExtractable, PageRangeError, parsePageSpec, readExtracted, slicePages, type SourceInfo } from '../sources';
import { readInside } from '../workspace/task-paths';
import { parseLibraryPath } from '../workspace/library-paths';
import { cutLine, errnoCode, formatBytes, looksBinary, splitLines } from './text';
import { ALL_AREAS, resolveToolPath, type Tool, type ToolContext, ToolError, ToolFileNotFoundError, ToolTooLargeError, type ToolTraits } from './types';
import { wrapUntrusted } from './untrusted';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
/** Stays under the loop's 16,000-character cap so the continuation note is never cut off. */
const MAX_OUTPUT_CHARS = 15_000;
const MAX_FILE_BYTES = 50 * 1024 * 1024;

const parameters = z.object({
  path: z.string().describe('File path relative to the task folder.'),
  offset: z.number().int().min(1).optional().describe('1-based line to start at (default 1).'),
  limit: z.number().int().min(1).optional().describe(`Maximum lines to return (default ${DEFAULT_LIMIT}).`),
  pages: z
    .string()
    .optional()
    .describe('For sources (PDF, DOCX, PPTX, XLSX, CSV under source/): the pages to read, e.g. "3", "3-7" or "1,4,9-10". Slides and sheets count as pages.'),
});

type Args = z.output<typeof parameters>;

/**
 * How a page of text reaches the model: as is (the task's own files), or marked as untrusted (text
 * extracted from a document; see untrusted.ts), with Folio's paging footer outside the marker.
 */
type Wrap = (body: string) => string;
const unwrapped: Wrap = (body) => body;
const asDocument =
  (rel: string): Wrap =>
  (body) =>
    wrapUntrusted(`document ${rel}`, body);

/** Numbered lines from `offset`, cut to the output cap, with a footer saying how to go on. */
function pageByLines(label: string, lines: readonly string[], args: Args, note: string, wrap: Wrap = unwrapped): string {
  if (lines.length === 0) return `${label} is empty.`;
  const start = (args.offset ?? 1) - 1;
  if (start >= lines.length) {
    throw new ToolError(`offset ${start + 1} is past the end of ${label} (${lines.length} lines).`);
  }
  const end = Math.min(lines.length, start + (args.limit ?? DEFAULT_LIMIT));
  const out: string[] = [];
  let chars = 0;
  let next = start;
  while (next < end) {
    const row = `${String(next + 1).padStart(6)}\t${cutLine(lines[next] ?? '', MAX_LINE_CHARS)}`;
    if (out.length > 0 && chars + row.length + 1 > MAX_OUTPUT_CHARS) break;
    out.push(row);
    chars += row.length + 1;
    next += 1;
  }
  const footer =
    next < lines.length
      ? `(Showing lines ${start + 1}-${next} of ${lines.length}${note}. To read more, call read with offset=${next + 1}.)`
      : `(Showing lines ${start + 1}-${next} of ${lines.length}${note}; end of file.)`;
  return `${wrap(out.join('\n'))}\n\n${footer}`;
}

/** The requested pages' text (markers included), stopping at a page boundary under the output cap. */
function readPages(rel: string, lines: readonly string[], spec: string, pageCount: number, wrap: Wrap): string {
  let wanted: number[];
  try {
    wanted = parsePageSpec(spec, pageCount);
  } catch (err) {
    if (err instanceof PageRangeError) throw new ToolError(`${rel}: ${err.message}`);
    throw err;
  }
  const slices = slicePages(lines, wanted);
  const out: string[] = [];
  let chars = 0;
  const shown: number[] = [];
  for (const slice of slices) {
    const text = slice.lines.map((l) => cutLine(l, MAX_LINE_CHARS)).join('\n');
    if (chars + text.length + 2 > MAX_OUTPUT_CHARS) {
      if (out.length === 0) {
        // One page alone is over the cap: show its start and say which cache lines hold the rest.
        const kept: string[] = [];
        let used = 0;
        for (const line of slice.lines) {
          const cut = cutLine(line, MAX_LINE_CHARS);
          if (used + cut.length + 1 > MAX_OUTPUT_CHARS) break;
          kept.push(cut);
          used += cut.length + 1;
        }
        const rest = wanted.filter((p) => p > slice.page);
        return (
          `${wrap(kept.join('\n'))}\n\n(Page ${slice.page} is long; showing its first ${kept.length} of ${slice.lines.length} lines. ` +
          `Read the rest with read path="${rel}" offset=${slice.start + kept.length + 1}` +
          `${rest.length > 0 ? `, then pages="${formatPageList(rest)}"` : ''}.)`
        );
      }
      break;
    }
    out.push(text);
    chars += text.length + 2;
    shown.push(slice.page);
  }
  const missing = wanted.filter((p) => !shown.includes(p));
  const footer =
    missing.length > 0
      ? `(Showing pages ${formatPageList(shown)} of ${pageCount}; the output limit was reached. To read more, call read with pages="${formatPageList(missing)}".)`
      : `(Showing pages ${formatPageList(shown)} of ${pageCount}.)`;
  return `${wrap(out.join('\n\n'))}\n\n${footer}`;
}

function refusal(rel: string, state: SourceInfo): ToolError {
  if (state.status === 'image') {
    return new ToolError(`${rel} is an image: it has no text to read. Describe it only if you can see images (a vision-capable model).`);
  }
  return new ToolError(`${rel}: ${state.message ?? 'could not be extracted'}`);
}

async function readSource(taskRoot: string, rel: string, args: Args, ctx: ToolContext): Promise<string | null> {
  const name = path.posix.basename(rel);
  const state = await ensureExtracted(taskRoot, rel, {
    signal: ctx.signal,
    onProgress: (done, total) => ctx.progress?.({ step: 'extract_text', file: name }, done, total),
  });
  if (state.status === 'ok' && state.cache_path === null) return null; // plain UTF-8 text: read as is
  if (state.status !== 'ok' || state.cache_path === null) throw refusal(rel, state);
  const markdown = await readExtracted(taskRoot, state.cache_path);
  const lines = splitLines(markdown);
  const note = state.message ? `\n(Note: ${state.message}.)` : '';
  if (args.pages !== undefined) return `${readPages(rel, lines, args.pages, state.pages ?? 1, asDocument(rel))}${note}`;
  return `${pageByLines(rel, lines, args, ` of the text extracted to ${state.cache_path}, with <!-- page N --> markers`, asDocument(rel))}${note}`;
}

/** A library file (`library/project/...`, `library/personal/...`): its indexed text, read like a source. */
async function readLibrary(taskPath: string, args: Args, ctx: ToolContext): Promise<string | null> {
  const lib = parseLibraryPath(taskPath);
  if (!lib) return null;
  if (!ctx.library) throw new ToolError(`${taskPath}: this task has no library (only tasks in a project, and the personal library, have one).`);
  if (lib.path === '') throw new ToolError(`${taskPath} is a folder; use grep with path="${taskPath}" or search_library to find what you need.`);
  const found = await ctx.library.read(lib.scope, lib.path);
  if (!found) throw new ToolFileNotFoundError(taskPath, `File not found in the library: ${taskPath}`);
  const { doc, markdown } = found;
  if (doc.status === 'pending' || doc.status === 'indexing') throw new ToolError(`${taskPath} is still being indexed; try again shortly.`);
  if (doc.status === 'image' || doc.status === 'error') throw refusal(taskPath, { path: taskPath, status: doc.status, pages: doc.pages, message: doc.message, cache_path: null });
  const lines = splitLines(markdown);
  const note = doc.message ? `\n(Note: ${doc.message}.)` : '';
  if (args.pages !== undefined) return `${readPages(taskPath, lines, args.pages, doc.pages ?? 1, asDocument(taskPath))}${note}`;
  return `${pageByLines(taskPath, lines, args, ', the library text with <!-- page N --> markers', asDocument(taskPath))}${note}`;
}

const traits: ToolTraits = { kind: 'read', runsCode: false, network: false, paths: { read: ALL_AREAS, write: [] }, writesArtifacts: false, endsTurn: false };

export const readTool: Tool<typeof parameters> = {
  name: 'read',
  description:
    'Read a text file in the task folder. Returns numbered lines ("     1\\tline"); long files are paged: ' +
    'the footer says how to read more with offset/limit. Sources under source/ (PDF, DOCX, PPTX, XLSX, CSV) are ' +
    'read as extracted text with <!-- page N --> markers; pass pages="3-7" to read just those pages. Other binary files are refused. ' +
    'Library files (library/project/<file>, library/personal/<file>) are read the same way, read-only.',
  parameters,
  traits,
  async execute(args, ctx) {
    const library = await readLibrary(args.path, args, ctx);
    if (library !== null) return { content: library };
    const { abs, rel, root, area } = resolveToolPath(ctx, traits, args.path, 'read');
    let stat;
    try {
      stat = await fs.stat(abs);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') throw new ToolFileNotFoundError(args.path, `File not found: ${args.path}`);
      throw err;
    }
    if (stat.isDirectory()) throw new ToolError(`${args.path} is a directory; use glob to list its files.`);
    if (isExtractable(rel)) {
      const content = await readSource(root, rel, args, ctx);
      if (content !== null) return { content };
    }
    if (args.pages !== undefined && args.pages.replace(/\s+/gu, '') !== '1') {
      throw new ToolError(`${args.path} has no pages (pages applies to PDF, DOCX, PPTX, XLSX and CSV sources); use offset and limit.`);
    }
    if (stat.size > MAX_FILE_BYTES) {
      throw new ToolTooLargeError(`${args.path} is ${formatBytes(stat.size)}, too large to read; use grep to find what you need.`, args.path);
    }
    const bytes = await readInside(root, rel);
    if (looksBinary(bytes)) {
      const hint = /\.(pdf|docx|pptx|xlsx)$/iu.test(rel) ? ' Documents are read as text only from the source/ folder.' : '';
      throw new ToolError(`${args.path} is a binary file (${formatBytes(bytes.length)}); read only shows text files.${hint}`);
    }
    // A text source (notes, minutes, a markdown file the person added) may carry instructions as much
    // as a PDF: it is marked the same way. The task's own work files are the agent's, shown as they are.
    return { content: pageByLines(args.path, splitLines(bytes.toString('utf8')), args, '', area === 'source' ? asDocument(rel) : unwrapped) };
  },
};
