// The one path resolver for everything that touches a task's files: tools, extraction caches,
// previews, PDF export, downloads and uploads. A path from the model (or from a request) is refused
// unless it names something inside its root once symbolic links are followed, and every refusal is
// one error class, PathEscapeError (`path_escape`). Files are opened with no-follow semantics and
// the opened descriptor is checked again, because a sandboxed command may plant or swap links in
// the task folder while the unsandboxed process reads it.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileKind } from '../../shared/contract';
import { FolioError, PathEscapeError } from '../../shared/errors';
import { TASK_SUBFOLDERS } from './layout';

/**
 * Characters that look like a path separator or a dot but are not, and that NFKC leaves alone
 * (U+2215 DIVISION SLASH, U+2044 FRACTION SLASH, ...). Those that NFKC folds to `/`, `\` or `.`
 * (U+FF0F, U+FF0E, U+2024, ...) are caught by the normalisation check instead. Middle dots (U+00B7,
 * U+30FB) are deliberately absent: they are common in Chinese and Japanese names.
 */
const LOOKALIKES = /[\u2215\u2044\u29F8\u29F5\u29F9\u2216\uFE68\u2571\u2572]/u;

/** What the model is told when it tries to change a source. */
export const SOURCE_READ_ONLY_MESSAGE =
  'source/ holds the original files, which are never modified; write your version under work/ instead (e.g. work/notes.md)';

/** Refuses a path that is not a plain relative path before touching the file system. */
function checkLexically(relPath: string): void {
  const quoted = JSON.stringify(relPath);
  if (relPath.length === 0) throw new PathEscapeError('Path is empty; give a path relative to the task folder (use "." for the folder itself).');
  if (relPath.includes('\0')) throw new PathEscapeError(`Path ${quoted} contains a NUL byte.`);
  if (/[\u0001-\u001f\u007f]/u.test(relPath)) throw new PathEscapeError(`Path ${quoted} contains a control character.`);

  const normalised = relPath.normalize('NFKC');
  for (const ch of ['/', '\\', '.']) {
    if (count(normalised, ch) > count(relPath, ch)) {
      throw new PathEscapeError(`Path ${quoted} contains a character that looks like "${ch}" (Unicode look-alike); use plain ASCII separators.`);
    }
  }
  const lookalike = LOOKALIKES.exec(relPath);
  if (lookalike) {
    const code = lookalike[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0') ?? '';
    throw new PathEscapeError(`Path ${quoted} contains U+${code}, which looks like a path separator or dot; use plain ASCII.`);
  }
  if (relPath.startsWith('/') || relPath.startsWith('\\')) throw new PathEscapeError(`Path ${quoted} is absolute; give a path relative to the task folder.`);
  if (/^[A-Za-z]:/u.test(relPath)) throw new PathEscapeError(`Path ${quoted} is a Windows drive path; give a path relative to the task folder.`);
  if (relPath === '~' || relPath.startsWith('~/') || relPath.startsWith('~\\')) {
    throw new PathEscapeError(`Path ${quoted} refers to a home folder; give a path relative to the task folder.`);
  }
  // Backslashes count as separators too: on Windows they are, and a POSIX name containing `..\` is
  // never something a model needs.
  let depth = 0;
  for (const segment of relPath.split(/[/\\]/u)) {
    if (segment === '..') depth -= 1;
    else if (segment !== '' && segment !== '.') depth += 1;
    if (depth < 0) throw new PathEscapeError(`Path ${quoted} escapes the task folder ("..").`);
  }
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

function errnoCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

/**
 * The real path of `abs`, which need not exist: the deepest existing ancestor is resolved and the
 * missing tail appended. A dangling symlink is followed to its target, since writing through it
 * would create the target.
 */
function realpathAllowingMissing(abs: string, hops = 0): string {
  if (hops > 40) throw new PathEscapeError(`Too many levels of symbolic links at ${abs}.`);
  try {
    return fs.realpathSync.native(abs);
  } catch (err) {
    const code = errnoCode(err);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  let stat: fs.Stats | null = null;
  try {
    stat = fs.lstatSync(abs);
  } catch {
    stat = null;
  }
  if (stat?.isSymbolicLink()) return realpathAllowingMissing(path.resolve(path.dirname(abs), fs.readlinkSync(abs)), hops + 1);
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  return path.join(realpathAllowingMissing(parent, hops), path.basename(abs));
}

/** Whether `candidate` is `root` or below it (both absolute, same form: real or lexical). */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

function realRoot(root: string): string {
  try {
    return fs.realpathSync.native(root);
  } catch (err) {
    throw new PathEscapeError(`The folder ${root} is not accessible (${errnoCode(err) ?? 'error'}).`);
  }
}

/**
 * Resolves a relative path to an absolute real path inside `root`, or throws PathEscapeError saying
 * exactly why not. The result may not exist yet (for writes). Symbolic links that stay inside are
 * allowed; the result is where they lead.
 */
export function resolveInside(root: string, relPath: string): string {
  checkLexically(relPath);
  const base = realRoot(root);
  const resolved = realpathAllowingMissing(path.resolve(base, relPath));
  if (!isInside(base, resolved)) {
    throw new PathEscapeError(`Path ${JSON.stringify(relPath)} resolves outside the task folder (through a symbolic link).`);
  }
  return resolved;
}

/** The root-relative, `/`-separated form of an absolute path inside root ("." for root itself). */
export function toRelative(root: string, abs: string): string {
  const bases = [path.resolve(root)];
  try {
    bases.push(fs.realpathSync.native(root));
  } catch {
    // root gone: the lexical form is all we have
  }
  for (const base of bases) {
    if (isInside(base, abs)) {
      const rel = path.relative(base, abs);
      return rel === '' ? '.' : rel.split(path.sep).join('/');
    }
  }
  throw new PathEscapeError(`${abs} is outside the task folder.`);
}

// ---------------------------------------------------------------------------------------------
// Task folders: source/, work, artifacts/

/**
 * Where a task's paths live. `work` is the task folder itself, or a coding task's project folder;
 * `source/...` and `artifacts/...` always mean the task's own folders, so sources stay readable and
 * results land where the UI previews them.
 */
export interface TaskFolders {
  /** The task's own folder, `<data>/tasks/<id>`. */
  task: string;
  /** Every other path: the task folder, or the project folder a coding task works in. */
  work: string;
}

/** The folders from a tool context's `root` (where the tool works) and `taskRoot` (the task's own). */
export function taskFolders(ctx: { root: string; taskRoot?: string }): TaskFolders {
  return { task: ctx.taskRoot ?? ctx.root, work: ctx.root };
}

export type Access = 'read' | 'write';

export interface TaskPath {
  /** Absolute real path (may not exist yet). */
  abs: string;
  /** Relative to `root`, `/`-separated ("." for the root itself). */
  rel: string;
  /** The folder the path was resolved in (TaskFolders.task or .work). */
  root: string;
  /** Which of the task's areas the path really lies in, after links are followed. */
  area: FileKind;
}

const TASK_NAMESPACES = new Set<string>([TASK_SUBFOLDERS.source, TASK_SUBFOLDERS.artifact]);

/** The first segment of a relative path or pattern, after `./` prefixes. */
function firstSegment(relPath: string): string {
  return relPath.replace(/\\/gu, '/').replace(/^(?:\.\/)+/u, '').split('/')[0] ?? '';
}

/** The folder a path or glob pattern is relative to: the task's for `source/` and `artifacts/`, else the work folder. */
export function rootForPath(folders: TaskFolders, relPath: string): string {
  return TASK_NAMESPACES.has(firstSegment(relPath)) ? folders.task : folders.work;
}

/** The area of a real absolute path: decided by where it lies, not by how it was spelled. */
function areaOf(folders: TaskFolders, abs: string): FileKind {
  const task = realpathAllowingMissing(path.resolve(folders.task));
  if (isInside(path.join(task, TASK_SUBFOLDERS.source), abs)) return 'source';
  if (isInside(path.join(task, TASK_SUBFOLDERS.artifact), abs)) return 'artifact';
  return 'work';
}

export interface ResolveOptions {
  access: Access;
  /** The areas the caller may name (a tool's declared traits); default: all. */
  areas?: readonly FileKind[];
}

/**
 * Resolves a task path for reading or writing. Throws PathEscapeError for anything outside its
 * root, and `forbidden` for a write into source/ (the person's originals are never modified) or a
 * path in an area the caller did not declare.
 */
export function resolveTaskPath(folders: TaskFolders, relPath: string, opts: ResolveOptions): TaskPath {
  const root = rootForPath(folders, relPath);
  const abs = resolveInside(root, relPath);
  const area = areaOf(folders, abs);
  if (opts.access === 'write' && area === 'source') throw new FolioError('forbidden', `Cannot write ${relPath}: ${SOURCE_READ_ONLY_MESSAGE}.`, { name: 'ReadOnlyPathError' });
  if (opts.areas && !opts.areas.includes(area)) {
    const allowed = opts.areas.map((a) => (a === 'work' ? 'the working folder' : `${TASK_SUBFOLDERS[a]}/`)).join(', ');
    throw new FolioError('forbidden', `${relPath} is in ${area === 'work' ? 'the working folder' : `${TASK_SUBFOLDERS[area]}/`}; this tool only works with ${allowed}.`, { name: 'ReadOnlyPathError' });
  }
  return { abs, rel: toRelative(root, abs), root, area };
}

// ---------------------------------------------------------------------------------------------
// Opening files without following links

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Where an open descriptor really points (Linux), or null where the platform cannot say. */
async function descriptorPath(fd: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    return await fsp.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

export interface OpenInsideOptions {
  /** Default 'r'. Writes never follow a link at the last component either. */
  flags?: 'r' | 'w' | 'wx';
  /**
   * Refuse a symbolic link at the last component even if it points inside (extraction caches and
   * sidecars: Folio writes them as plain files, so a link there was planted).
   */
  noLinks?: boolean;
}

/**
 * Opens `relPath` inside `root` with O_NOFOLLOW and checks the opened descriptor is still inside, so
 * a link swapped in between the check and the open is refused too. Throws PathEscapeError.
 */
export async function openInside(root: string, relPath: string, opts: OpenInsideOptions = {}): Promise<fsp.FileHandle> {
  const base = realRoot(root);
  let target: string;
  if (opts.noLinks) {
    // The folder part may go through links that stay inside; the file itself must not be one.
    checkLexically(relPath);
    const lexical = path.resolve(base, relPath);
    target = path.join(resolveInside(base, path.relative(base, path.dirname(lexical)) || '.'), path.basename(lexical));
  } else {
    target = resolveInside(base, relPath);
  }
  const flags = { r: fs.constants.O_RDONLY, w: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC, wx: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL }[opts.flags ?? 'r'];
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(target, flags | O_NOFOLLOW | O_NONBLOCK, 0o644);
  } catch (err) {
    if (errnoCode(err) === 'ELOOP') throw new PathEscapeError(`${relPath} is a symbolic link; Folio does not follow it here.`);
    if (errnoCode(err) === 'ENXIO') throw new SpecialFileError(relPath, 'a FIFO or socket');
    throw err;
  }
  try {
    const real = await descriptorPath(handle.fd);
    if (real !== null && !isInside(base, real)) throw new PathEscapeError(`${relPath} was redirected outside the task folder while it was opened.`);
    assertPlainKind(await handle.stat(), relPath);
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

// ---------------------------------------------------------------------------------------------
// Special files: a FIFO, socket or device planted by a command under a file's name

/**
 * O_NONBLOCK on every open of a file a command could have made: opening a FIFO blocks until the
 * other end opens, holding one of libuv's four pool threads for good (four such calls stall every
 * file operation of the process). Regular files ignore the flag.
 */
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/** Refused: Folio reads and writes regular files and lists folders, nothing else. */
export class SpecialFileError extends FolioError {
  constructor(relPath: string, kind: string) {
    super('invalid_input', `${relPath} is ${kind}, not a regular file; Folio reads and writes only regular files and folders.`, { name: 'SpecialFileError' });
  }
}

function specialKind(stat: fs.Stats): string | null {
  if (stat.isFile() || stat.isDirectory()) return null;
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'a special file';
}

function assertPlainKind(stat: fs.Stats, relPath: string): void {
  const kind = specialKind(stat);
  if (kind !== null) throw new SpecialFileError(relPath, kind);
}

/**
 * Reads a regular file Folio did not write itself (a spec, an image, a source) by absolute path,
 * after the resolver has placed it: non-blocking open, the kind checked on the open descriptor.
 * `shown` is how errors name it (task-relative).
 */
export async function readRegularFile(abs: string, shown: string = path.basename(abs)): Promise<Buffer> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(abs, fs.constants.O_RDONLY | O_NONBLOCK);
  } catch (err) {
    if (errnoCode(err) === 'ENXIO') throw new SpecialFileError(shown, 'a FIFO or socket');
    throw err;
  }
  try {
    const stat = await handle.stat();
    assertPlainKind(stat, shown);
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: ${shown} is a directory`), { code: 'EISDIR' });
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** readRegularFile for the synchronous callers (spec loaders): never blocks on a FIFO either. */
export function readRegularFileSync(abs: string, shown: string = path.basename(abs)): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | O_NONBLOCK);
  } catch (err) {
    if (errnoCode(err) === 'ENXIO') throw new SpecialFileError(shown, 'a FIFO or socket');
    throw err;
  }
  try {
    const stat = fs.fstatSync(fd);
    assertPlainKind(stat, shown);
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: ${shown} is a directory`), { code: 'EISDIR' });
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The bytes of a regular file inside root, read with openInside's guarantees. */
export async function readInside(root: string, relPath: string, opts: { noLinks?: boolean; maxBytes?: number } = {}): Promise<Buffer> {
  const handle = await openInside(root, relPath, { noLinks: opts.noLinks });
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: ${relPath} is a directory`), { code: 'EISDIR' });
    if (!stat.isFile()) throw new FolioError('invalid_input', `${relPath} is not a regular file.`);
    if (opts.maxBytes !== undefined && stat.size > opts.maxBytes) {
      throw new FolioError('payload_too_large', `${relPath} is larger than ${opts.maxBytes} bytes.`);
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Writes a file inside root (creating its folders), never through a link at the last component. */
export async function writeInside(root: string, relPath: string, data: string | Uint8Array, opts: { exclusive?: boolean } = {}): Promise<void> {
  const abs = resolveInside(root, relPath);
  await fsp.mkdir(path.dirname(abs), { recursive: true });
  const handle = await openInside(root, toRelative(root, abs), { flags: opts.exclusive ? 'wx' : 'w' });
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/** Removes a file Folio staged inside root; a path that now leads outside (a swapped link) is left alone. */
export async function removeInside(root: string, relPath: string): Promise<void> {
  let abs: string;
  try {
    abs = resolveInside(root, relPath);
  } catch {
    return;
  }
  await fsp.rm(abs, { force: true });
}
