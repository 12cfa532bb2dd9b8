// Path confinement for every file tool: a model-supplied path is refused unless it names something
// inside the root, after symlinks are followed. Lexical checks catch the obvious escapes with a clear
// message; the realpath check catches the ones that only the file system knows about.
import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from './types';

/**
 * Characters that look like a path separator or a dot but are not, and that NFKC leaves alone
 * (U+2215 DIVISION SLASH, U+2044 FRACTION SLASH, ...). Those that NFKC folds to `/`, `\` or `.`
 * (U+FF0F, U+FF0E, U+2024, ...) are caught by the normalisation check instead. Middle dots (U+00B7,
 * U+30FB) are deliberately absent: they are common in Chinese and Japanese names.
 */
const LOOKALIKES = /[\u2215\u2044\u29F8\u29F5\u29F9\u2216\uFE68\u2571\u2572]/u;

/** Refuses a path that is not a plain relative path before touching the file system. */
function checkLexically(relPath: string): void {
  if (relPath.length === 0) throw new ToolError('Path is empty; give a path relative to the task folder (use "." for the folder itself).');
  if (relPath.includes('\0')) throw new ToolError(`Path ${JSON.stringify(relPath)} contains a NUL byte.`);
  if (/[\u0001-\u001f\u007f]/u.test(relPath)) throw new ToolError(`Path ${JSON.stringify(relPath)} contains a control character.`);

  const normalised = relPath.normalize('NFKC');
  for (const ch of ['/', '\\', '.']) {
    if (count(normalised, ch) > count(relPath, ch)) {
      throw new ToolError(`Path ${JSON.stringify(relPath)} contains a character that looks like "${ch}" (Unicode look-alike); use plain ASCII separators.`);
    }
  }
  const lookalike = LOOKALIKES.exec(relPath);
  if (lookalike) {
    const code = lookalike[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0') ?? '';
    throw new ToolError(`Path ${JSON.stringify(relPath)} contains U+${code}, which looks like a path separator or dot; use plain ASCII.`);
  }

  if (relPath.startsWith('/') || relPath.startsWith('\\')) {
    throw new ToolError(`Path ${JSON.stringify(relPath)} is absolute; give a path relative to the task folder.`);
  }
  if (/^[A-Za-z]:/u.test(relPath)) {
    throw new ToolError(`Path ${JSON.stringify(relPath)} is a Windows drive path; give a path relative to the task folder.`);
  }
  if (relPath === '~' || relPath.startsWith('~/') || relPath.startsWith('~\\')) {
    throw new ToolError(`Path ${JSON.stringify(relPath)} refers to a home folder; give a path relative to the task folder.`);
  }

  // Backslashes count as separators too: on Windows they are, and a POSIX name containing `..\` is
  // never something a model needs.
  let depth = 0;
  for (const segment of relPath.split(/[/\\]/u)) {
    if (segment === '..') depth -= 1;
    else if (segment !== '' && segment !== '.') depth += 1;
    if (depth < 0) throw new ToolError(`Path ${JSON.stringify(relPath)} escapes the task folder ("..").`);
  }
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

function errnoCode(err: unknown): string | undefined {
  if (err instanceof Error && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/**
 * The real path of `abs`, which need not exist: the deepest existing ancestor is resolved and the
 * missing tail appended. A dangling symlink is followed to its target, since writing through it
 * would create the target.
 */
function realpathAllowingMissing(abs: string, hops = 0): string {
  if (hops > 40) throw new ToolError(`Too many levels of symbolic links at ${abs}.`);
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
  if (stat?.isSymbolicLink()) {
    const target = path.resolve(path.dirname(abs), fs.readlinkSync(abs));
    return realpathAllowingMissing(target, hops + 1);
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  return path.join(realpathAllowingMissing(parent, hops), path.basename(abs));
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

function realRoot(root: string): string {
  try {
    return fs.realpathSync.native(root);
  } catch (err) {
    throw new ToolError(`The task folder ${root} is not accessible (${errnoCode(err) ?? 'error'}).`);
  }
}

/**
 * Resolves a model-supplied relative path to an absolute real path inside `root`, or throws a
 * ToolError saying exactly why not. The result may not exist yet (for writes).
 */
export function resolveInside(root: string, relPath: string): string {
  checkLexically(relPath);
  const base = realRoot(root);
  const resolved = realpathAllowingMissing(path.resolve(base, relPath));
  if (!isInside(base, resolved)) {
    throw new ToolError(`Path ${JSON.stringify(relPath)} resolves outside the task folder (through a symbolic link).`);
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
  throw new ToolError(`${abs} is outside the task folder.`);
}

const TASK_NAMESPACES = /^(source|artifacts)(\/|$)/;

/**
 * The folder a tool path lives in: a coding task's tools work in the project folder, but
 * `source/...` and `artifacts/...` still mean the task's own sources and results.
 */
export function rootFor(ctx: { root: string; taskRoot?: string }, relPath: string): string {
  return ctx.taskRoot && ctx.taskRoot !== ctx.root && TASK_NAMESPACES.test(relPath.replace(/^\.\//, '')) ? ctx.taskRoot : ctx.root;
}
