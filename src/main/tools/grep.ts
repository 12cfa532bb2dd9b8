// grep: search file contents with a JavaScript regular expression. Sources under source/ (PDF,
// DOCX, ...) are searched through their extracted markdown (extracting them first if needed) and
// matches are reported by page: "source/report.pdf (page 3): text".
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ensureExtracted, isCacheFile, isExtractable, pageOfEachLine, readExtracted, sourceOfCacheFile } from '../sources';
import { PAGE_MARKER } from '../sources/formats/markdown';
import { IGNORED_DIRS } from './glob';
import { LineMatcher } from './line-matcher';
import { PathEscapeError } from '../../shared/errors';
import { openInside, toRelative } from '../workspace/task-paths';
import { parseLibraryPath } from '../workspace/library-paths';
import { cutLine, errnoCode, looksBinary, splitLines } from './text';
import { ALL_AREAS, resolveToolPath, type Tool, type ToolContext, ToolError, ToolFileNotFoundError, type ToolTraits } from './types';

const MAX_MATCHES = 200;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_LINE_CHARS = 300;

const parameters = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression, e.g. "TODO|FIXME" or "function\\\\s+load".'),
  path: z.string().optional().describe('File or folder to search, relative to the task folder (default: the whole folder).'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.md".'),
  ignore_case: z.boolean().optional().describe('Match case-insensitively.'),
});

function compile(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ToolError(`Invalid regular expression ${JSON.stringify(pattern)}: ${message}`);
  }
}

/** Files under `dir` in sorted order; symlinks are not followed (they may point outside the root). */
async function* walk(dir: string, signal: AbortSignal): AsyncGenerator<string> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (signal.aborted) return;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!IGNORED_DIRS.includes(entry.name)) yield* walk(full, signal);
    } else if (entry.isFile()) {
      yield full;
    }
  }
}

/** What to search for one walked file: its own bytes, or a source's extracted markdown. */
interface Target {
  /** Relative to the search root: the file itself, or the source's extraction cache. */
  rel: string;
  /** Name shown in results: the source's path for extracted markdown. */
  label: string;
  /** Extracted markdown: results say the page instead of the line. */
  paged: boolean;
}

interface Tally {
  unsearchable: string[];
}

async function exists(abs: string): Promise<boolean> {
  return fs.stat(abs).then(
    () => true,
    () => false,
  );
}

async function targetFor(root: string, rel: string, single: boolean, ctx: ToolContext, tally: Tally): Promise<Target | null> {
  if (isExtractable(rel)) {
    const state = await ensureExtracted(root, rel, {
      signal: ctx.signal,
      onProgress: (done, total) => ctx.progress?.({ step: 'extract_text', file: path.posix.basename(rel) }, done, total),
    });
    if (state.cache_path) return { rel: state.cache_path, label: rel, paged: true };
    if (state.status === 'ok') return { rel, label: rel, paged: false }; // plain UTF-8 text
    if (state.status === 'error') tally.unsearchable.push(`${rel} (${state.message ?? 'error'})`);
    return null;
  }
  if (isCacheFile(rel)) {
    const source = sourceOfCacheFile(rel);
    if (source === null) return null; // a sidecar
    // Searched through its source, unless it is named directly or its source is gone.
    if (!single && (await exists(path.join(root, source)))) return null;
    return { rel, label: source, paged: true };
  }
  return { rel, label: rel, paged: false };
}

/**
 * The target's text, or null when it is over the size cap or binary. Opened without following
 * links: a cache is read only as the plain file Folio wrote, anything else only inside the root.
 */
async function readTarget(root: string, target: Target): Promise<string | null> {
  if (target.paged) {
    const text = await readExtracted(root, target.rel);
    return Buffer.byteLength(text) > MAX_FILE_BYTES ? null : text;
  }
  const handle = await openInside(root, target.rel);
  try {
    if ((await handle.stat()).size > MAX_FILE_BYTES) return null;
    const bytes = await handle.readFile();
    return looksBinary(bytes) ? '' : bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** grep over a library folder or file (`library/project[/...]`): its indexed text, matches by page. */
async function grepLibrary(taskPath: string, regex: RegExp, glob: ((p: string) => boolean) | null, ctx: ToolContext): Promise<string | null> {
  const lib = parseLibraryPath(taskPath);
  if (!lib) return null;
  if (!ctx.library) throw new ToolError(`${taskPath}: this task has no library (only tasks in a project, and the personal library, have one).`);
  const port = ctx.library;
  const docs = (await port.list(lib.scope)).filter((d) => lib.path === '' || d.path === lib.path || d.path.startsWith(`${lib.path}/`));
  if (docs.length === 0) throw new ToolFileNotFoundError(taskPath, `Path not found in the library: ${taskPath}`);
  const out: string[] = [];
  const waiting: string[] = [];
  let total = 0;
  const matcher = new LineMatcher(regex.source, regex.flags, { signal: ctx.signal });
  try {
    for (const doc of docs) {
      if (ctx.signal.aborted) break;
      if (glob && !glob(doc.path)) continue;
      if (doc.status === 'pending' || doc.status === 'indexing') waiting.push(doc.taskPath);
      const markdown = (await port.read(lib.scope, doc.path))?.markdown ?? '';
      if (!markdown) continue;
      const lines = splitLines(markdown);
      const pages = pageOfEachLine(lines);
      for (const i of await matcher.match(lines)) {
        const line = lines[i] ?? '';
        if (PAGE_MARKER.test(line)) continue;
        total += 1;
        if (out.length < MAX_MATCHES) out.push(`${doc.taskPath} (page ${pages[i] ?? 1}): ${cutLine(line, MAX_LINE_CHARS)}`);
      }
      if (total > MAX_MATCHES * 5) break;
    }
  } finally {
    matcher.close();
  }
  const notes: string[] = [];
  if (total > MAX_MATCHES) notes.push(`(Showing the first ${MAX_MATCHES} matches; narrow the pattern, or use search_library for ranked results.)`);
  if (waiting.length > 0) notes.push(`(Still being indexed, searched as far as indexed: ${waiting.join(', ')}.)`);
  if (out.length === 0) return [`No matches for ${JSON.stringify(regex.source)} in ${taskPath}.`, ...notes].join('\n');
  return [out.join('\n'), ...notes].join('\n\n');
}

const traits: ToolTraits = { kind: 'read', runsCode: false, network: false, paths: { read: ALL_AREAS, write: [] }, writesArtifacts: false, endsTurn: false };

export const grepTool: Tool<typeof parameters> = {
  name: 'grep',
  description:
    `Search text files in the task folder for a regular expression; returns "path:line: text" ` +
    `(at most ${MAX_MATCHES} matches; binary files and files over 5 MB are skipped). Sources under source/ ` +
    `(PDF, DOCX, PPTX, XLSX, CSV) are searched as extracted text and matches say the page: "source/a.pdf (page 3): text". ` +
    `The library is searched with path="library/project" or path="library/personal" (or one of their files).`,
  parameters,
  traits,
  async execute(args, ctx) {
    // Compiled here only to report a syntax error clearly; matching runs in a worker (line-matcher.ts).
    const regex = compile(args.pattern, args.ignore_case ?? false);
    // A glob without a slash matches the file name at any depth, as people expect of "*.ts".
    // picomatch loads at the first call with a glob, not at start-up.
    const matchesGlob = args.glob ? (await import('picomatch')).default(args.glob, { dot: true, basename: !args.glob.includes('/') }) : null;
    const library = await grepLibrary(args.path ?? '', regex, matchesGlob, ctx);
    if (library !== null) return { content: library };
    const { abs: start, root } = resolveToolPath(ctx, traits, args.path ?? '.', 'read');
    const stat = await fs.stat(start).catch((err: unknown) => {
      if (errnoCode(err) === 'ENOENT') throw new ToolFileNotFoundError(args.path ?? '.', `Path not found: ${args.path ?? '.'}`);
      throw err;
    });

    const single = !stat.isDirectory();
    const files = single ? (async function* () { yield start; })() : walk(start, ctx.signal);
    const out: string[] = [];
    const tally: Tally = { unsearchable: [] };
    let total = 0;
    let skipped = 0;
    const matcher = new LineMatcher(regex.source, regex.flags, { signal: ctx.signal });
    try {
      for await (const file of files) {
        const rel = toRelative(root, file);
        if (matchesGlob && !matchesGlob(rel)) continue;
        const target = await targetFor(root, rel, single, ctx, tally);
        if (!target) continue;
        let text: string | null;
        try {
          text = await readTarget(root, target);
        } catch (err) {
          // A link planted where a file was: reported, never followed.
          if (!(err instanceof PathEscapeError)) throw err;
          tally.unsearchable.push(`${rel} (${err.message})`);
          continue;
        }
        if (text === null) {
          skipped += 1;
          continue;
        }
        if (text === '') continue;
        const lines = splitLines(text);
        const pages = target.paged ? pageOfEachLine(lines) : null;
        for (const i of await matcher.match(lines)) {
          const line = lines[i] ?? '';
          if (pages && PAGE_MARKER.test(line)) continue;
          total += 1;
          if (out.length >= MAX_MATCHES) continue;
          const text = cutLine(line, MAX_LINE_CHARS);
          if (pages) {
            const page = pages[i];
            out.push(`${target.label} (${page === null || page === undefined ? 'document info' : `page ${page}`}): ${text}`);
          } else {
            out.push(`${target.label}:${i + 1}: ${text}`);
          }
        }
        if (total > MAX_MATCHES * 5) break;
      }
    } finally {
      matcher.close();
    }
    const notes: string[] = [];
    if (total > MAX_MATCHES) notes.push(`(Showing the first ${MAX_MATCHES} matches; narrow the pattern, path or glob.)`);
    if (skipped > 0) notes.push(`(${skipped} file(s) over 5 MB were skipped.)`);
    if (tally.unsearchable.length > 0) notes.push(`(Not searched, could not be read: ${tally.unsearchable.join('; ')}.)`);
    if (out.length === 0) return { content: [`No matches for ${JSON.stringify(args.pattern)}.`, ...notes].join('\n') };
    return { content: [out.join('\n'), ...notes].join('\n\n') };
  },
};
