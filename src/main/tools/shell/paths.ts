// Paths in a command line: the one operand scanner every rule uses, the one "is inside the task
// folder" check, and the checks built on them (writes, reads outside the folder, process and
// kernel internals, targets no sane command deletes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scope } from './scope';
import type { Arg } from './syntax';

export interface OptionSpec {
  /** Short options that take a value (attached or as the next argument). */
  short?: string;
  /** Long options that take a value (as `--opt=value` or the next argument). */
  long?: string[];
}

export interface Scanned {
  /** Every operand, options and their values left out (`--` ends the options). */
  operands: Arg[];
  /** Index in `args` of the first operand (args.length when there is none): where a wrapped command starts. */
  first: number;
}

/** Whether an option takes the next argument as its value. */
function consumesNext(option: string, spec: OptionSpec): boolean {
  if (option.startsWith('--')) return spec.long?.includes(option) === true;
  const valued = [...option.slice(1)].findIndex((ch) => spec.short?.includes(ch) === true);
  return valued !== -1 && valued === option.length - 2;
}

/** The one operand scanner: GNU-style, so options may follow operands, and values of valued options are skipped. */
export function scanArgs(args: Arg[], spec: OptionSpec = {}): Scanned {
  const operands: Arg[] = [];
  let first = -1;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (!a) continue;
    if (a.text === '--') {
      if (first === -1) first = i + 1;
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.text.startsWith('-') && a.text.length > 1) {
      if (consumesNext(a.text, spec)) i += 1;
      continue;
    }
    if (first === -1) first = i;
    operands.push(a);
  }
  return { operands, first: first === -1 ? args.length : first };
}

/** Index of the first operand, options only before it: where a wrapper's command starts. */
export function firstOperand(args: Arg[], spec: OptionSpec = {}): number {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]?.text ?? '';
    if (a === '--') return i + 1;
    if (!a.startsWith('-') || a === '-') return i;
    if (consumesNext(a, spec)) i += 1;
  }
  return args.length;
}

function real(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    const parent = path.dirname(p);
    return parent === p ? p : path.join(real(parent), path.basename(p));
  }
}

/** The one "is inside" check: symbolic links resolved, so a link in the folder that points out is out. */
export function isInsideFolder(folder: string, abs: string): boolean {
  const rel = path.relative(real(folder), real(abs));
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

export const BLOCK_DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|dm-|md\d|loop|mapper\/|sr\d|fd\d)/u;
const HARMLESS_DEVICES = /^\/dev\/(?:null|zero|u?random|stdout|stderr|stdin|tty|fd\/\d+)$|^\/proc\/self\/fd\/\d+$/u;
/** Another process's environment, memory, files or root; the kernel's memory and debug switches. */
const PROCESS_INTERNALS = /^\/proc\/(?:\d+|self|thread-self|[^/]*[*?[][^/]*)(?:\/|$)|^\/proc\/(?:kcore|kallsyms|sysrq-trigger|kmsg)$/u;
const KERNEL_INTERNALS = /^\/dev\/(?:mem|kmem|port)$|^\/sys\/(?:firmware|kernel\/(?:debug|security))(?:\/|$)/u;

/** Reads of other processes' environments (API keys, tokens), raw memory or raw disks, wherever the word appears. */
export function checkSensitivePath(word: Arg, scope: Scope): void {
  for (const t of candidates(word)) {
    if (HARMLESS_DEVICES.test(t)) continue;
    if (PROCESS_INTERNALS.test(t)) return scope.verdict.add('destructive', `reads process internals (${t}), where other programs keep their secrets`);
    if (KERNEL_INTERNALS.test(t) || (BLOCK_DEVICE.test(t) && !word.dynamic)) return scope.verdict.add('destructive', `reads kernel or raw disk data (${t})`);
  }
}

/** The word, and what follows `=` in it (--file=../x, VAR=~/x). */
function candidates(word: Arg): string[] {
  const eq = word.text.indexOf('=');
  return eq > 0 ? [word.text, word.text.slice(eq + 1)] : [word.text];
}

/**
 * Words that name files outside the task folder where it matters: `..` climbing out of it (also
 * inside a path, `work/../../x`), the home folder, Folio's data folder (keys, other tasks). Other
 * absolute paths (/usr/bin, /tmp) stay ordinary; the sandbox, where there is one, keeps them read-only.
 */
export function checkOutsidePath(word: Arg, scope: Scope): void {
  const home = os.homedir();
  for (const t of candidates(word)) {
    let abs: string | null = null;
    const homeWord = /^(?:~|\$\{?HOME\}?)(?=\/|$)/u.exec(t);
    const climbs = t.split('/').includes('..');
    if (homeWord) abs = path.join(home, t.slice(homeWord[0].length));
    else if (/^~[A-Za-z0-9_.-]+(?:\/|$)/u.test(t)) return scope.verdict.add('destructive', `touches files outside the task folder (${t})`);
    else if (word.dynamic) continue;
    else if (t.startsWith('/')) abs = path.normalize(t);
    else if (climbs) abs = scope.cwd ? path.resolve(scope.cwd, t) : path.posix.normalize(t).startsWith('..') ? '/..' : null;
    if (abs === null) continue;
    if (scope.cwd && isInsideFolder(scope.cwd, abs)) continue;
    const inHome = home !== '/' && (abs === home || isInsideFolder(home, abs));
    const inProtected = scope.protectedPaths.some((p) => isInsideFolder(p, abs));
    if ((climbs && !t.startsWith('/')) || homeWord || inHome || inProtected) {
      return scope.verdict.add('destructive', `touches files outside the task folder (${t})`);
    }
  }
}

/** Where a path written by the command lands, for write-then-run; null when it cannot be known. */
export function resolveWritten(target: Arg, scope: Scope): string | null {
  if (target.dynamic || target.glob) return null;
  return path.resolve(scope.cwd ?? '/nonexistent-cwd', target.text);
}

/** A write (redirection, tee, cp, sed w, find -fprint ...): outside the folder, over a file, through a link, onto a device. */
export function checkWriteTarget(target: Arg, truncating: boolean, scope: Scope, via: string): void {
  const { verdict, cwd } = scope;
  const t = target.text;
  const written = resolveWritten(target, scope);
  if (written) scope.written.add(written);
  if (target.dynamic || target.glob) return verdict.add('destructive', `${via} writes to a path computed at run time (${t})`);
  if (BLOCK_DEVICE.test(t)) return verdict.add('blocked', `${via} writes to the block device ${t}`);
  if (HARMLESS_DEVICES.test(t)) return;
  if (t.startsWith('/dev/') || t.startsWith('/proc/') || t.startsWith('/sys/')) return verdict.add('destructive', `${via} writes to the device ${t}`);
  const expanded = t === '~' || t.startsWith('~/') ? path.join(os.homedir(), t.slice(1)) : t;
  if (t.startsWith('~') && expanded === t) return verdict.add('destructive', `${via} writes into a home folder (${t})`);
  if (!cwd) {
    if (path.isAbsolute(expanded) || expanded.split('/').includes('..')) verdict.add('destructive', `${via} writes to ${t}, outside the working folder`);
    return;
  }
  const abs = path.resolve(cwd, expanded);
  if (!isInsideFolder(cwd, abs)) return verdict.add('destructive', `${via} writes to ${t}, outside the working folder`);
  // git runs its hooks and the programs its configuration names: writing them is writing code.
  if (/(?:^|\/)\.git(?:\/|$)/iu.test(path.relative(cwd, abs))) return verdict.add('destructive', `${via} writes git's hooks or configuration (${t}), which git runs`);
  let stat: fs.Stats | null = null;
  try {
    stat = fs.lstatSync(abs);
  } catch {
    stat = null;
  }
  if (stat?.isSymbolicLink()) verdict.add('destructive', `${via} writes through the symbolic link ${t}`);
  else if (stat?.isFile() && truncating) verdict.add('destructive', `${via} overwrites the existing file ${t}`);
}

const SYSTEM_DIRS = new Set([
  'bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'opt', 'proc', 'root', 'sbin', 'srv', 'sys', 'usr', 'var',
  'Users', 'System', 'Library', 'Applications', 'Volumes', 'private',
]);

/** Expands unquoted `{a,b}` alternatives (bash does, before rm sees them). */
function expandBraces(value: string, limit = 64): string[] {
  const open = value.indexOf('{');
  if (open === -1) return [value];
  let level = 0;
  const commas: number[] = [];
  for (let i = open; i < value.length; i += 1) {
    const ch = value[i];
    if (ch === '{') level += 1;
    else if (ch === '}') {
      level -= 1;
      if (level !== 0) continue;
      if (commas.length === 0) return [value];
      const bounds = [open, ...commas, i];
      const out: string[] = [];
      for (let k = 0; k + 1 < bounds.length && out.length < limit; k += 1) {
        const alt = value.slice((bounds[k] ?? 0) + 1, bounds[k + 1]);
        out.push(...expandBraces(value.slice(0, open) + alt + value.slice(i + 1), limit));
      }
      return out.slice(0, limit);
    } else if (ch === ',' && level === 1) commas.push(i);
  }
  return [value];
}

/** Root, home, or a top-level system folder: never a sane target for rm, chmod -R, mv. */
export function catastrophicTarget(arg: Arg): string | null {
  for (const raw of arg.braces ? expandBraces(arg.text) : [arg.text]) {
    let t = raw.trim().replace(/^\$\{?HOME\}?(?=\/|$)/u, '~');
    // `/`, `/*`, `/.`, `//`, `~/`, `~/*` all reduce to their base.
    for (let prev = ''; prev !== t; ) {
      prev = t;
      t = t.replace(/\/+/gu, '/').replace(/\/(?:\*|\.)$/u, '').replace(/(.)\/$/u, '$1');
    }
    if (t === '' || t === '/' || t === '/*') return raw;
    if (t === '~' || /^~[A-Za-z0-9_-]*$/u.test(t)) return raw;
    const top = /^\/([^/]+)$/u.exec(t);
    if (top?.[1] && SYSTEM_DIRS.has(top[1])) return raw;
  }
  return null;
}
