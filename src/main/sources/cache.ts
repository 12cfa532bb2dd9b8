// Extraction results cached next to the source: `source/report.pdf` → `source/report.pdf.md` (the
// page-marked markdown) and `source/.report.pdf.extract.json` (a sidecar with the sha256 the result
// belongs to). The markdown keeps the source's extension in its name so it never clashes with a
// person's own `report.md`. A cache is reused until the source's bytes (sha256) or the extractor
// version change; size and mtime are compared first so an unchanged file is not re-hashed.
//
// The task folder is writable by sandboxed commands, so anything here may have been replaced by a
// symbolic link: every path goes through the task-path resolver, and caches and sidecars (which
// Folio writes as plain files) are opened with no-follow semantics, so a planted link is treated as
// a stale cache and never read through.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { openInside, readInside, resolveInside, writeInside } from '../workspace/task-paths';
import { DEFAULT_MAX_BYTES, extractFile, isRetryable } from './extract';
import { isPlainUtf8 } from './formats/decode';
import { formatMb } from './limits';
import { cachePathFor, cacheTempPathFor, declaredKind, isExtractable, sidecarPathFor, sniff, SOURCE_DIR } from './kinds';
import { type ExtractionResult, type SourceInfo } from './types';

/** Bump when extraction output changes, so old caches are redone. */
export const EXTRACTOR_VERSION = 1;
/** Plain UTF-8 text sources up to this size are read as they are, without a cache. */
const MAX_PLAIN_TEXT_BYTES = 50 * 1024 * 1024;

const sidecarSchema = z.object({
  sha256: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  status: z.enum(['ok', 'scanned', 'image', 'error']),
  pages: z.number().nullable(),
  message: z.string().nullable(),
  title: z.string().nullable(),
  version: z.number(),
});
type Sidecar = z.infer<typeof sidecarSchema>;

export interface EnsureOptions {
  onProgress?: (done: number, total: number | null) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
}

function normaliseRel(relPath: string): string {
  return path.posix.normalize(relPath.replace(/\\/gu, '/')).replace(/^\.\/|\/$/gu, '');
}

/** The real path of a task-relative path; throws PathEscapeError if it leads outside the task folder. */
function absoluteIn(taskRoot: string, rel: string): string {
  return resolveInside(taskRoot, rel);
}

/** Where a cache file would be, without following a link at its own name (its folder must stay inside). */
function cacheLocation(taskRoot: string, rel: string): string {
  return path.join(absoluteIn(taskRoot, path.posix.dirname(rel)), path.posix.basename(rel));
}

function info(rel: string, status: SourceInfo['status'], pages: number | null, message: string | null, cachePath: string | null): SourceInfo {
  return { path: rel, status, pages, message, cache_path: cachePath };
}

async function sha256File(taskRoot: string, rel: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await openInside(taskRoot, rel);
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

async function readSidecar(taskRoot: string, rel: string): Promise<Sidecar | null> {
  try {
    const parsed = sidecarSchema.safeParse(JSON.parse((await readInside(taskRoot, rel, { noLinks: true })).toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Write-then-rename, so a crash never leaves a half-written cache that looks valid. The temporary
 * file is created exclusively (never through a link), and rename replaces a link planted at the
 * final name instead of writing through it.
 */
async function writeAtomically(taskRoot: string, rel: string, content: string): Promise<void> {
  const tmpRel = cacheTempPathFor(rel, process.pid, Date.now());
  await writeInside(taskRoot, tmpRel, content, { exclusive: true });
  await fs.rename(cacheLocation(taskRoot, tmpRel), cacheLocation(taskRoot, rel));
}

/** A cache file as Folio writes it: a regular file, not a link (a link there was planted). */
async function isPlainFile(taskRoot: string, rel: string): Promise<boolean> {
  try {
    return (await fs.lstat(cacheLocation(taskRoot, rel))).isFile();
  } catch {
    return false;
  }
}

/**
 * The text of an extraction cache (`source/x.pdf.md`), read without following links: the one way
 * tools read a cache. Throws PathEscapeError when the cache is a link or leads outside the task.
 */
export async function readExtracted(taskRoot: string, cachePath: string): Promise<string> {
  return (await readInside(taskRoot, cachePath, { noLinks: true })).toString('utf8');
}

function fromSidecar(rel: string, side: Sidecar): SourceInfo {
  const hasMarkdown = side.status === 'ok' || side.status === 'scanned';
  return info(rel, side.status, side.pages, side.message, hasMarkdown ? cachePathFor(rel) : null);
}

/** The cached result for the file as it is now, or null when there is none or it is stale. */
async function cachedInfo(taskRoot: string, rel: string, stat: { size: number; mtimeMs: number }): Promise<SourceInfo | null> {
  const sidecarRel = sidecarPathFor(rel);
  const side = await readSidecar(taskRoot, sidecarRel);
  if (!side || side.version !== EXTRACTOR_VERSION || side.size !== stat.size) return null;
  if (side.mtimeMs !== stat.mtimeMs) {
    if ((await sha256File(taskRoot, rel)) !== side.sha256) return null;
    await writeAtomically(taskRoot, sidecarRel, JSON.stringify({ ...side, mtimeMs: stat.mtimeMs }, null, 2));
  }
  const result = fromSidecar(rel, side);
  if (result.cache_path && !(await isPlainFile(taskRoot, result.cache_path))) return null;
  return result;
}

/** Plain UTF-8 text needs no extraction: it is read as is. Null when the file needs converting. */
async function plainTextInfo(taskRoot: string, rel: string, size: number): Promise<SourceInfo | null> {
  if (declaredKind(rel) !== 'text' || size > MAX_PLAIN_TEXT_BYTES) return null;
  const bytes = await readInside(taskRoot, rel);
  if (bytes.length === 0 || sniff(bytes.subarray(0, 8192)) !== 'text' || !isPlainUtf8(bytes)) return null;
  return info(rel, 'ok', null, null, null);
}

async function removeCache(taskRoot: string, rel: string): Promise<void> {
  // rm removes a link itself, never its target.
  await fs.rm(cacheLocation(taskRoot, cachePathFor(rel)), { force: true });
  await fs.rm(cacheLocation(taskRoot, sidecarPathFor(rel)), { force: true });
}

function precheckFailure(rel: string, size: number, maxBytes: number): SourceInfo | null {
  if (size === 0) return info(rel, 'error', null, 'empty file', null);
  if (size > maxBytes) {
    return info(rel, 'error', null, `too large: ${formatMb(size)} (the limit is ${formatMb(maxBytes)})`, null);
  }
  return null;
}

async function extractAndStore(taskRoot: string, rel: string, opts: EnsureOptions): Promise<SourceInfo> {
  const abs = absoluteIn(taskRoot, rel);
  let stat;
  try {
    stat = await fs.stat(abs);
  } catch {
    return info(rel, 'error', null, 'file not found', null);
  }
  if (!stat.isFile()) return info(rel, 'error', null, 'not a file', null);
  const early = precheckFailure(rel, stat.size, opts.maxBytes ?? DEFAULT_MAX_BYTES);
  if (early) return early;
  const cached = await cachedInfo(taskRoot, rel, stat);
  if (cached) return cached;
  const plain = await plainTextInfo(taskRoot, rel, stat.size);
  if (plain) {
    await removeCache(taskRoot, rel);
    return plain;
  }

  // Hash before extracting: if the file changes meanwhile, the stored hash will not match it and
  // the next call extracts again.
  const sha256 = await sha256File(taskRoot, rel);
  const result: ExtractionResult = await extractFile(abs, opts);
  const message = result.message ?? null;
  if (isRetryable(result)) return info(rel, 'error', null, message, null);

  const side: Sidecar = {
    sha256,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    status: result.status,
    pages: result.pages,
    message,
    title: result.title ?? null,
    version: EXTRACTOR_VERSION,
  };
  const cacheRel = cachePathFor(rel);
  if (result.status === 'ok' || result.status === 'scanned') await writeAtomically(taskRoot, cacheRel, result.markdown);
  else await fs.rm(cacheLocation(taskRoot, cacheRel), { force: true });
  await writeAtomically(taskRoot, sidecarPathFor(rel), JSON.stringify(side, null, 2));
  return fromSidecar(rel, side);
}

interface InFlight {
  promise: Promise<SourceInfo>;
  listeners: Set<(done: number, total: number | null) => void>;
  callers: number;
  controller: AbortController;
}

const inFlight = new Map<string, InFlight>();

function cancelled(rel: string): SourceInfo {
  return info(rel, 'error', null, 'extraction cancelled', null);
}

/**
 * The extraction of `relPath` (relative to the task folder, under `source/`), from the cache when
 * it is current. Concurrent calls for one file share one extraction; it is cancelled only when
 * every caller's signal has aborted. Never throws for a bad file: problems come back as status.
 */
export async function ensureExtracted(taskRoot: string, relPath: string, opts: EnsureOptions = {}): Promise<SourceInfo> {
  const rel = normaliseRel(relPath);
  if (!isExtractable(rel) || rel.startsWith('../')) return info(rel, 'error', null, `not an extractable source (only files in ${SOURCE_DIR}/ in a known format are)`, null);
  if (opts.signal?.aborted) return cancelled(rel);
  let key: string;
  try {
    key = absoluteIn(taskRoot, rel);
  } catch (err) {
    return info(rel, 'error', null, err instanceof Error ? err.message : String(err), null);
  }
  let entry = inFlight.get(key);
  if (!entry) {
    const controller = new AbortController();
    const listeners = new Set<(done: number, total: number | null) => void>();
    const promise = extractAndStore(taskRoot, rel, {
      ...opts,
      signal: controller.signal,
      onProgress: (done, total) => listeners.forEach((fn) => fn(done, total)),
    })
      // File-system trouble (a source deleted mid-way, a read-only folder) is a result too.
      .catch((err: unknown) => info(rel, 'error', null, `extraction failed: ${err instanceof Error ? err.message : String(err)}`, null))
      .finally(() => {
        if (inFlight.get(key) === entry) inFlight.delete(key);
      });
    entry = { promise, listeners, callers: 0, controller };
    inFlight.set(key, entry);
  }
  const shared = entry;
  shared.callers += 1;
  const listener = opts.onProgress;
  if (listener) shared.listeners.add(listener);
  const signal = opts.signal;
  if (!signal) return shared.promise;

  return new Promise<SourceInfo>((resolve) => {
    const onAbort = () => {
      if (listener) shared.listeners.delete(listener);
      shared.callers -= 1;
      if (shared.callers === 0) {
        shared.controller.abort();
        // A caller arriving now must not join an extraction that is being cancelled.
        if (inFlight.get(key) === shared) inFlight.delete(key);
      }
      resolve(cancelled(rel));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    void shared.promise.then((result) => {
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    });
  });
}

async function listFiles(dir: string, rel: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const childRel = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), childRel)));
    else if (entry.isFile()) out.push(childRel);
  }
  return out;
}

/** Every extractable file in `source/` with its extraction state; nothing is extracted here. */
export async function sourceStatus(taskRoot: string): Promise<SourceInfo[]> {
  const files = (await listFiles(path.join(taskRoot, SOURCE_DIR), SOURCE_DIR)).filter(isExtractable).sort();
  const out: SourceInfo[] = [];
  for (const rel of files) {
    let stat;
    try {
      stat = await fs.stat(absoluteIn(taskRoot, rel));
    } catch {
      continue;
    }
    const state =
      precheckFailure(rel, stat.size, DEFAULT_MAX_BYTES) ??
      (await cachedInfo(taskRoot, rel, stat)) ??
      (await plainTextInfo(taskRoot, rel, stat.size)) ??
      info(rel, 'pending', null, null, null);
    out.push(state);
  }
  return out;
}

function pageWord(rel: string): [string, string] {
  switch (declaredKind(rel)) {
    case 'pptx':
      return ['slide', 'slides'];
    case 'xlsx':
      return ['sheet', 'sheets'];
    default:
      return ['page', 'pages'];
  }
}

/** One short note per source for the system prompt, e.g. `{'source/report.pdf': '12 pages'}`. */
export async function sourceNotes(taskRoot: string): Promise<Record<string, string>> {
  const notes: Record<string, string> = {};
  for (const s of await sourceStatus(taskRoot)) {
    const [one, many] = pageWord(s.path);
    const count = s.pages === null ? null : `${s.pages} ${s.pages === 1 ? one : many}`;
    let note: string | null = null;
    if (s.status === 'pending') note = 'not extracted yet';
    else if (s.status === 'error') note = `error: ${s.message ?? 'unreadable'}`;
    else if (s.status === 'scanned') note = `scanned${count ? `, ${count}` : ''}`;
    else if (s.status === 'image') note = 'image, no text';
    else if (declaredKind(s.path) === 'pdf' || declaredKind(s.path) === 'pptx' || declaredKind(s.path) === 'xlsx') note = count;
    if (note) notes[s.path] = note;
  }
  return notes;
}
