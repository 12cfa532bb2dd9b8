// Classifies a shell command before it runs: `blocked` never runs, `destructive` needs an explicit,
// warned approval, `standard` is an ordinary command. The command is parsed by a real shell parser
// and every simple command in it (in substitutions, pipelines, lists, functions, subshells) is
// judged; the strongest class wins. What cannot be parsed is treated as destructive.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Arg, type ShNode, binaryOp, child, children, nodeType, parseShell, redirectOp, text, walk, wordToArg } from './syntax';

export type CommandClass = 'blocked' | 'destructive' | 'standard';

export interface Classification {
  class: CommandClass;
  /** Why, for the strongest class only (empty for standard). */
  reasons: string[];
}

export interface ClassifyOptions {
  /** The folder the command will run in; needed to tell whether a `>` overwrites an existing file. */
  cwd?: string;
  /** Folders no command argument may point into (Folio's data folder), unless inside `cwd`. */
  protectedPaths?: readonly string[];
}

const rank: Record<CommandClass, number> = { standard: 0, destructive: 1, blocked: 2 };
const MAX_DEPTH = 12;

class Verdict {
  level: CommandClass = 'standard';
  private readonly reasons = new Map<CommandClass, Set<string>>();

  add(level: CommandClass, reason: string): void {
    if (rank[level] > rank[this.level]) this.level = level;
    let set = this.reasons.get(level);
    if (!set) this.reasons.set(level, (set = new Set()));
    set.add(reason);
  }

  result(): Classification {
    return { class: this.level, reasons: this.level === 'standard' ? [] : [...(this.reasons.get(this.level) ?? [])] };
  }
}

interface Scope {
  verdict: Verdict;
  cwd: string | undefined;
  protectedPaths: readonly string[];
  depth: number;
}

export function classifyCommand(command: string, options: ClassifyOptions = {}): Classification {
  const verdict = new Verdict();
  classifySource(command, { verdict, cwd: options.cwd, protectedPaths: options.protectedPaths ?? [], depth: 0 });
  return verdict.result();
}

function classifySource(source: string, scope: Scope): void {
  if (scope.depth > MAX_DEPTH) {
    scope.verdict.add('destructive', 'the command nests too deeply to check');
    return;
  }
  let file: ShNode;
  try {
    file = parseShell(source);
  } catch (err) {
    scope.verdict.add('destructive', `the command could not be parsed (${err instanceof Error ? err.message : 'parse error'})`);
    return;
  }
  walk(file, (node, type) => {
    if (type === 'Stmt') classifyStatement(node, scope);
    else if (type === 'BinaryCmd') classifyPipe(node, scope);
    else if (type === 'FuncDecl') classifyFunction(node, scope);
  });
}

// ---------------------------------------------------------------------------------------------
// Statements, pipelines and functions

function callArgs(cmd: ShNode | null): Arg[] | null {
  if (!cmd || nodeType(cmd) !== 'CallExpr') return null;
  return children(cmd, 'Args').map(wordToArg);
}

function classifyStatement(stmt: ShNode, scope: Scope): void {
  const argv = callArgs(child(stmt, 'Cmd'));
  if (argv) {
    classifyArgv(argv, scope);
    // A program run by absolute path (/usr/bin/x, a toolchain under the home folder) is read, not touched.
    argv.forEach((word, i) => {
      if (i > 0 || !word.text.startsWith('/')) checkOutsidePath(word, scope);
    });
  }
  for (const redirect of children(stmt, 'Redirs')) classifyRedirect(redirect, argv, scope);
}

function classifyRedirect(redirect: ShNode, argv: Arg[] | null, scope: Scope): void {
  const op = redirectOp(redirect);
  const target = wordToArg(child(redirect, 'Word'));
  if (op === '>&' && /^(?:\d+|-)$/u.test(target.text)) return; // fd duplication, not a file
  if (!['<<', '<<-', '<<<'].includes(op)) checkOutsidePath(target, scope);
  if (['>', '>|', '&>', '>&'].includes(op)) checkWriteTarget(target, true, scope, `redirect ${op}`);
  else if (['>>', '&>>', '<>'].includes(op)) checkWriteTarget(target, false, scope, `redirect ${op}`);

  if (argv && ['<', '<<', '<<-', '<<<', '<>'].includes(op)) {
    const core = unwrap(argv);
    if (core.kind === 'argv' && readsScriptFromStdin(core.argv)) {
      scope.verdict.add('blocked', `feeds a script to ${commandName(core.argv)} on standard input (${op})`);
    }
  }
}

/** Anything piped into a shell or interpreter that reads its program from standard input runs unseen code. */
function classifyPipe(cmd: ShNode, scope: Scope): void {
  const op = binaryOp(cmd);
  if (op !== '|' && op !== '|&') return;
  const receiver = child(cmd, 'Y');
  if (!receiver) return;
  for (const argv of stdinConsumers(receiver)) {
    const core = unwrap(argv);
    if (core.kind === 'argv' && readsScriptFromStdin(core.argv)) {
      scope.verdict.add('blocked', `pipes into ${commandName(core.argv)}, which would run whatever the left side produces`);
    }
  }
}

/** The simple commands that may read a pipeline stage's input (conservatively, all of a compound one). */
function stdinConsumers(stmt: ShNode): Arg[][] {
  const cmd = child(stmt, 'Cmd');
  const direct = callArgs(cmd);
  if (direct) return [direct];
  const found: Arg[][] = [];
  walk(cmd, (node, type) => {
    if (type === 'CallExpr') {
      const argv = callArgs(node);
      if (argv) found.push(argv);
    }
  });
  return found;
}

/** A function that calls itself in a pipeline or in the background multiplies until the machine stalls. */
function classifyFunction(decl: ShNode, scope: Scope): void {
  const name = text(child(decl, 'Name'), 'Value');
  const body = child(decl, 'Body');
  if (!name || !body) return;
  let callsItself = false;
  let spawns = false;
  walk(body, (node, type) => {
    if (type === 'CallExpr') {
      const argv = callArgs(node);
      if (argv?.[0]?.text === name) callsItself = true;
    } else if (type === 'Stmt' && node.Background === true) {
      spawns = true;
    } else if (type === 'BinaryCmd' && ['|', '|&'].includes(binaryOp(node))) {
      spawns = true;
    }
  });
  if (callsItself && spawns) scope.verdict.add('blocked', `fork bomb: function ${name} calls itself in a pipeline or in the background`);
}

// ---------------------------------------------------------------------------------------------
// Simple commands

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'posh', 'rbash']);
const INTERPRETERS = new Set(['python', 'python2', 'python3', 'perl', 'ruby', 'node', 'nodejs', 'php', 'lua', 'tclsh', 'osascript', 'pwsh']);
const ELEVATE = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0']);
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const FORMATTERS = new Set(['mke2fs', 'mkswap', 'wipefs', 'blkdiscard']);
const PARTITIONERS = new Set(['fdisk', 'sfdisk', 'cfdisk', 'parted', 'sgdisk', 'gdisk']);
const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'wipe', 'truncate']);
const PERMISSIONS = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl']);
const DEVICE_WRITERS = new Set(['cp', 'tee', 'install', 'shred', 'pv', 'ddrescue']);

const BLOCK_DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|dm-|md\d|loop|mapper\/|sr\d|fd\d)/u;
const HARMLESS_DEVICES = /^\/dev\/(?:null|zero|u?random|stdout|stderr|stdin|tty|fd\/\d+)$|^\/proc\/self\/fd\/\d+$/u;
const SYSTEM_DIRS = new Set([
  'bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'opt', 'proc', 'root', 'sbin', 'srv', 'sys', 'usr', 'var',
  'Users', 'System', 'Library', 'Applications', 'Volumes', 'private',
]);

function commandName(argv: Arg[]): string {
  const first = argv[0]?.text ?? '';
  return first.split('/').pop() ?? first;
}

function classifyArgv(argv: Arg[], scope: Scope): void {
  const notes: string[] = [];
  const core = unwrap(argv, 0, notes);
  for (const note of notes) scope.verdict.add('destructive', note);
  if (core.kind === 'source') {
    classifySource(core.source, { ...scope, depth: scope.depth + 1 });
    return;
  }
  if (core.kind === 'none') return;
  classifyCore(core.argv, scope);
}

function classifyCore(argv: Arg[], scope: Scope): void {
  const nameArg = argv[0];
  if (!nameArg) return;
  const { verdict } = scope;
  if (nameArg.dynamic) {
    verdict.add('destructive', `the command name is computed at run time (${nameArg.text})`);
    return;
  }
  if (nameArg.glob || nameArg.braces) {
    verdict.add('destructive', `the command name ${nameArg.text} is expanded by the shell`);
    return;
  }
  const name = commandName(argv).toLowerCase();
  const args = argv.slice(1);

  if (ELEVATE.has(name)) return verdict.add('blocked', `${name} runs commands with elevated privileges`);
  if (POWER.has(name)) return verdict.add('blocked', `${name} powers off or restarts the machine`);
  if (name === 'eval') return verdict.add('blocked', 'eval runs a string as code');
  if (name.startsWith('mkfs') || FORMATTERS.has(name)) return verdict.add('blocked', `${name} erases a file system or disk`);
  if (SHELLS.has(name)) return classifyShell(name, args, verdict);
  if (name === 'source' || name === '.') return classifySourceBuiltin(name, args, verdict);
  if (name === 'trap') return classifyTrap(args, scope);
  if (name === 'alias') return classifyAlias(args, scope);
  if (name === 'kill') return classifyKill(args, verdict);
  if (name === 'rm') return classifyRm(args, verdict);
  if (name === 'find') return classifyFind(args, scope);
  if (name === 'git') return classifyGit(args, verdict);
  if (AWKS.has(name)) return classifyAwk(name, args, verdict);
  if (name === 'dd') return classifyDd(args, verdict);
  if (name === 'sed') return classifyInPlace('sed', args, verdict);
  if (runsInlineCode(name, args)) verdict.add('destructive', `${name} runs inline code`);
  if (name === 'perl') return classifyInPlace('perl', args, verdict);
  if (name === 'cp' || name === 'install') return classifyCopy(name, args, scope);
  if (name === 'ln') return classifyLink(args, scope);
  if (name === 'rsync') return classifyRsync(args, verdict);
  if (name === 'tee') return classifyTee(args, scope);

  if (DEVICE_WRITERS.has(name)) {
    const device = args.find((a) => BLOCK_DEVICE.test(a.text));
    if (device) return verdict.add('blocked', `${name} writes to the block device ${device.text}`);
  }
  if (DELETERS.has(name)) return verdict.add('destructive', `${name} deletes or destroys file contents`);
  if (name === 'mv') return classifyMove(args, verdict);
  if (PERMISSIONS.has(name)) return classifyPermissions(name, args, verdict);
  if (PARTITIONERS.has(name)) return verdict.add('destructive', `${name} edits disk partitions`);
  if (name === 'pkill' || name === 'killall') return verdict.add('destructive', `${name} kills processes by name`);
}

// --- wrappers: commands that run another command given in their arguments ---

type Unwrapped = { kind: 'argv'; argv: Arg[] } | { kind: 'source'; source: string } | { kind: 'none' };

interface OptionSpec {
  /** Short options that take a value (attached or as the next argument). */
  short?: string;
  /** Long options that take a value (as `--opt=value` or the next argument). */
  long?: string[];
}

/** Index of the first operand after options, honouring `--` and options that take values. */
function firstOperand(args: Arg[], spec: OptionSpec = {}, from = 0): number {
  let i = from;
  while (i < args.length) {
    const a = args[i]?.text ?? '';
    if (a === '--') return i + 1;
    if (a.startsWith('--')) {
      const takesValue = spec.long?.includes(a.split('=')[0] ?? '') === true && !a.includes('=');
      i += takesValue ? 2 : 1;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      let consumed = 1;
      for (let k = 1; k < a.length; k += 1) {
        if (spec.short?.includes(a[k] ?? '') === true) {
          if (k === a.length - 1) consumed = 2;
          break;
        }
      }
      i += consumed;
      continue;
    }
    return i;
  }
  return args.length;
}

/** Peels wrappers (env, nice, timeout, xargs, ...) off a command, down to the command that really runs. */
function unwrap(argv: Arg[], depth = 0, notes: string[] = []): Unwrapped {
  const first = argv[0];
  if (!first || depth > MAX_DEPTH) return { kind: 'argv', argv };
  if (first.dynamic) return { kind: 'argv', argv };
  const name = commandName(argv).toLowerCase();
  const args = argv.slice(1);
  const inner = (rest: Arg[]): Unwrapped => (rest.length === 0 ? { kind: 'none' } : unwrap(rest, depth + 1, notes));

  switch (name) {
    case 'env': {
      let i = 0;
      for (; i < args.length; i += 1) {
        const a = args[i]?.text ?? '';
        if (a === '-S' || a === '--split-string') return { kind: 'source', source: args.slice(i + 1).map((x) => x.text).join(' ') };
        if (a.startsWith('--split-string=')) return { kind: 'source', source: a.slice('--split-string='.length) };
        if (a.startsWith('-S') && !a.startsWith('--')) return { kind: 'source', source: a.slice(2) };
        if (a === '-u' || a === '-C' || a === '--unset' || a === '--chdir') i += 1;
        else if (!a.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/u.test(a)) break;
      }
      return inner(args.slice(i));
    }
    case 'nice':
      return inner(args.slice(firstOperand(args, { short: 'n', long: ['--adjustment'] })));
    case 'timeout': {
      const duration = firstOperand(args, { short: 'sk', long: ['--signal', '--kill-after'] });
      return inner(args.slice(duration + 1));
    }
    case 'nohup':
    case 'builtin':
    case 'busybox':
    case 'unbuffer':
      return inner(args.slice(firstOperand(args)));
    case 'command': {
      if (args.some((a) => a.text === '-v' || a.text === '-V')) return { kind: 'none' };
      return inner(args.slice(firstOperand(args)));
    }
    case 'exec':
      return inner(args.slice(firstOperand(args, { short: 'a' })));
    case 'stdbuf':
      return inner(args.slice(firstOperand(args, { short: 'ioe', long: ['--input', '--output', '--error'] })));
    case 'ionice':
      return inner(args.slice(firstOperand(args, { short: 'cnp', long: ['--class', '--classdata', '--pid', '--pgid', '--uid'] })));
    case 'time':
      return inner(args.slice(firstOperand(args, { short: 'fo', long: ['--format', '--output'] })));
    case 'chrt':
    case 'taskset': {
      const policyOrMask = firstOperand(args);
      return inner(args.slice(policyOrMask + 1));
    }
    case 'xargs': {
      const start = firstOperand(args, {
        short: 'IinPLldEeas',
        long: ['--max-args', '--max-procs', '--max-lines', '--delimiter', '--eof', '--arg-file', '--replace', '--max-chars'],
      });
      // xargs appends arguments read from its input; with none given it runs echo.
      return start >= args.length ? { kind: 'none' } : unwrap(args.slice(start), depth + 1, notes);
    }
    case 'setsid':
      // A new session leaves the process group, so a timeout or cancel cannot kill what it starts.
      notes.push('setsid detaches the command from the process group, so it survives a timeout or cancel');
      return inner(args.slice(firstOperand(args)));
    case 'chroot': {
      const newRoot = firstOperand(args, { long: ['--userspec', '--groups'] });
      return inner(args.slice(newRoot + 1));
    }
    case 'unshare':
      return inner(
        args.slice(
          firstOperand(args, {
            short: 'SGRw',
            long: ['--setuid', '--setgid', '--root', '--wd', '--propagation', '--setgroups', '--map-user', '--map-group', '--map-users', '--map-groups'],
          }),
        ),
      );
    case 'flock': {
      const command = args.findIndex((a) => a.text === '-c' || a.text === '--command');
      if (command !== -1) return { kind: 'source', source: args[command + 1]?.text ?? '' };
      const lockFile = firstOperand(args, { short: 'wE', long: ['--timeout', '--wait', '--conflict-exit-code'] });
      return inner(args.slice(lockFile + 1));
    }
    case 'watch': {
      const start = firstOperand(args, { short: 'nq', long: ['--interval', '--differences'] });
      return { kind: 'source', source: args.slice(start).map((a) => a.text).join(' ') };
    }
    default:
      return { kind: 'argv', argv };
  }
}

// --- individual commands ---

const SHELL_OPTIONS: OptionSpec = { short: 'oO', long: ['--rcfile', '--init-file'] };

function readsScriptFromStdin(argv: Arg[]): boolean {
  const name = commandName(argv).toLowerCase();
  const shell = SHELLS.has(name);
  if (!shell && !INTERPRETERS.has(name) && !/^python\d/u.test(name)) return false;
  const args = argv.slice(1);
  if (args.some((a) => a.text === '-s')) return true;
  // Inline programs (python -c, -m module, perl/ruby/node -e) do not read their program from stdin.
  if (!shell && args.some((a) => /^-[A-Za-z]*[cmeEp]$/u.test(a.text) || a.text === '--eval' || a.text === '--print')) return false;
  const start = firstOperand(args, shell ? SHELL_OPTIONS : { short: 'WXIr', long: ['--require', '--import'] });
  const script = args[start];
  return script === undefined || script.text === '-' || script.text === '/dev/stdin';
}

function classifyShell(name: string, args: Arg[], verdict: Verdict): void {
  const start = firstOperand(args, SHELL_OPTIONS);
  const options = args.slice(0, start);
  if (options.some((a) => /^-[A-Za-z]*c[A-Za-z]*$/u.test(a.text) || a.text === '--command')) {
    verdict.add('blocked', `${name} -c runs a command string that cannot be checked; run the command directly`);
    return;
  }
  if (args.some((a) => a.procSubst)) verdict.add('blocked', `${name} runs a script from a process substitution`);
}

function isRemoteSource(arg: Arg): boolean {
  return arg.procSubst || arg.dynamic || arg.text.includes('://') || /^\/dev\/(?:stdin|fd\/)|^\/proc\//u.test(arg.text);
}

function classifySourceBuiltin(name: string, args: Arg[], verdict: Verdict): void {
  const script = args[0];
  if (!script || script.text === '-' || isRemoteSource(script)) {
    verdict.add('blocked', `${name} would run code that is not a file in the folder (${script?.text ?? 'standard input'})`);
  }
}

function classifyTrap(args: Arg[], scope: Scope): void {
  const action = args[0];
  if (!action || action.text.startsWith('-')) return;
  if (action.dynamic) scope.verdict.add('destructive', 'trap runs a command computed at run time');
  else classifySource(action.text, { ...scope, depth: scope.depth + 1 });
}

function classifyAlias(args: Arg[], scope: Scope): void {
  for (const a of args) {
    const eq = a.text.indexOf('=');
    if (eq > 0) classifySource(a.text.slice(eq + 1), { ...scope, depth: scope.depth + 1 });
  }
}

function classifyKill(args: Arg[], verdict: Verdict): void {
  const targets = args.slice(firstOperand(args, { short: 'sn' }));
  if (args.some((a) => a.text === '-1') && targets.length === 0) return verdict.add('blocked', 'kill -1 kills every process');
  if (targets.some((a) => a.text === '-1' || a.text === '0')) verdict.add('blocked', 'kill would signal every process');
}

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
      if (level === 0) {
        if (commas.length === 0) return [value];
        const bounds = [open, ...commas, i];
        const prefix = value.slice(0, open);
        const suffix = value.slice(i + 1);
        const out: string[] = [];
        for (let k = 0; k + 1 < bounds.length && out.length < limit; k += 1) {
          const alt = value.slice((bounds[k] ?? 0) + 1, bounds[k + 1]);
          out.push(...expandBraces(prefix + alt + suffix, limit));
        }
        return out.slice(0, limit);
      }
    } else if (ch === ',' && level === 1) commas.push(i);
  }
  return [value];
}

/** Root, home, or a top-level system folder: never a sane target for rm, chmod -R, mv. */
function catastrophicTarget(arg: Arg): string | null {
  const candidates = arg.braces ? expandBraces(arg.text) : [arg.text];
  for (const raw of candidates) {
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

function operandsOf(args: Arg[]): Arg[] {
  const out: Arg[] = [];
  let optionsDone = false;
  for (const a of args) {
    if (!optionsDone && a.text === '--') optionsDone = true;
    else if (!optionsDone && a.text.startsWith('-') && a.text.length > 1) continue;
    else out.push(a);
  }
  return out;
}

function classifyRm(args: Arg[], verdict: Verdict): void {
  if (args.some((a) => a.text === '--no-preserve-root')) {
    return verdict.add('blocked', 'rm --no-preserve-root would delete the whole file system');
  }
  for (const target of operandsOf(args)) {
    const hit = catastrophicTarget(target);
    if (hit !== null) return verdict.add('blocked', `rm targets ${hit}: the file system root, a home folder or a system folder`);
  }
  verdict.add('destructive', 'rm deletes files');
}

function classifyMove(args: Arg[], verdict: Verdict): void {
  const operands = operandsOf(args);
  for (const source of operands.slice(0, -1)) {
    const hit = catastrophicTarget(source);
    if (hit !== null) return verdict.add('blocked', `mv moves ${hit}: the file system root, a home folder or a system folder`);
  }
  verdict.add('destructive', 'mv moves or renames files (and can replace the destination)');
}

function classifyPermissions(name: string, args: Arg[], verdict: Verdict): void {
  const recursive = args.some((a) => /^-[A-Za-z]*R/u.test(a.text) || a.text === '--recursive');
  if (recursive) {
    const hit = operandsOf(args).map(catastrophicTarget).find((t) => t !== null);
    if (hit) return verdict.add('blocked', `${name} -R on ${hit} would change the whole system`);
  }
  verdict.add('destructive', `${name} changes file permissions or ownership`);
}

function classifyFind(args: Arg[], scope: Scope): void {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]?.text ?? '';
    if (a === '-delete') scope.verdict.add('destructive', 'find -delete deletes files');
    if (a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') {
      const rest = args.slice(i + 1);
      const end = rest.findIndex((t) => t.text === ';' || t.text === '+');
      const command = end === -1 ? rest : rest.slice(0, end);
      classifyArgv(command, { ...scope, depth: scope.depth + 1 });
      i += command.length + 1;
    }
  }
}

const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

function classifyGit(args: Arg[], verdict: Verdict): void {
  let i = 0;
  while (i < args.length) {
    const a = args[i]?.text ?? '';
    if (a === '-c' || a === '--config-env' || a.startsWith('--config-env=')) {
      // core.pager, core.sshCommand, alias.x=!cmd ... any setting may name a program to run.
      verdict.add('destructive', `git ${a.split('=')[0] ?? a} sets configuration, which can make git run any program`);
    }
    if (GIT_GLOBAL_WITH_VALUE.has(a)) i += 2;
    else if (a.startsWith('-')) i += 1;
    else break;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1).map((a) => a.text);
  const has = (...flags: string[]): boolean => rest.some((r) => flags.includes(r));
  switch (sub) {
    case 'reset':
      if (has('--hard', '--merge', '--keep')) verdict.add('destructive', 'git reset --hard discards uncommitted changes');
      break;
    case 'clean':
      if (!has('-n', '--dry-run')) verdict.add('destructive', 'git clean deletes untracked files');
      break;
    case 'push':
      if (has('-f', '--force', '--mirror', '--delete', '-d', '--prune') || rest.some((r) => r.startsWith('--force-with-lease') || r.startsWith('+'))) {
        verdict.add('destructive', 'git push rewrites or deletes remote history');
      }
      break;
    case 'checkout':
      if (has('--', '.', '-f', '--force')) verdict.add('destructive', 'git checkout discards local changes');
      break;
    case 'restore':
      if (!(has('--staged', '-S') && !has('--worktree', '-W'))) verdict.add('destructive', 'git restore discards local changes');
      break;
    case 'branch':
      if (has('-D') || (has('-d', '--delete') && has('-f', '--force'))) verdict.add('destructive', 'git branch -D deletes a branch');
      break;
    case 'stash':
      if (rest[0] === 'drop' || rest[0] === 'clear') verdict.add('destructive', `git stash ${rest[0]} deletes stashed changes`);
      break;
    case 'rm':
      verdict.add('destructive', 'git rm deletes files');
      break;
    default:
      break;
  }
}

function classifyDd(args: Arg[], verdict: Verdict): void {
  const output = args.find((a) => a.text.startsWith('of='));
  const target = output?.text.slice(3) ?? '';
  if (BLOCK_DEVICE.test(target)) return verdict.add('blocked', `dd writes to the block device ${target}`);
  verdict.add('destructive', 'dd writes raw data');
}

function classifyInPlace(name: string, args: Arg[], verdict: Verdict): void {
  for (const a of args) {
    if (a.text === '--') break;
    if (a.text === '--in-place' || a.text.startsWith('--in-place=') || /^-[a-hj-zA-HJ-Z]*i/u.test(a.text)) {
      return verdict.add('destructive', `${name} -i edits files in place`);
    }
  }
}

function classifyTee(args: Arg[], scope: Scope): void {
  const append = args.some((a) => a.text === '-a' || a.text === '--append' || /^-[A-Za-z]*a/u.test(a.text));
  for (const target of operandsOf(args)) checkWriteTarget(target, !append, scope, 'tee');
}

// --- inline code: the program is an argument, so nothing on disk shows what it does ---

/**
 * Whether an option cluster before the first operand holds one of the `code` letters (the flag that
 * takes an inline program). A letter in `valued` takes the rest of its cluster or the next argument;
 * one in `attached` only takes the rest of its cluster; one in `stop` ends option parsing (python -m: what follows belongs to the module).
 */
function hasInlineFlag(
  args: Arg[],
  flags: { code: string; valued?: string; attached?: string; stop?: string; long?: string[]; longValued?: string[] },
): boolean {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]?.text ?? '';
    if (a === '--' || a === '-' || !a.startsWith('-')) return false;
    if (a.startsWith('--')) {
      const name = a.split('=')[0] ?? a;
      if (flags.long?.includes(name) === true) return true;
      if (flags.longValued?.includes(name) === true && !a.includes('=')) i += 1;
      continue;
    }
    for (let k = 1; k < a.length; k += 1) {
      const ch = a[k] ?? '';
      if (flags.code.includes(ch)) return true;
      if (flags.stop?.includes(ch) === true) return false;
      if (flags.attached?.includes(ch) === true) break;
      if (flags.valued?.includes(ch) === true) {
        if (k === a.length - 1) i += 1;
        break;
      }
    }
  }
  return false;
}

const NODE_VALUED = ['--require', '--import', '--loader', '--experimental-loader', '--conditions', '--input-type', '--env-file', '--title'];

function runsInlineCode(name: string, args: Arg[]): boolean {
  if (/^(?:python|pypy)[\d.]*$/u.test(name)) return hasInlineFlag(args, { code: 'c', valued: 'WX', stop: 'm' });
  if (name === 'node' || name === 'nodejs' || name === 'bun') {
    return hasInlineFlag(args, { code: 'ep', valued: 'r', long: ['--eval', '--print'], longValued: NODE_VALUED });
  }
  if (name === 'deno') return args[firstOperand(args)]?.text === 'eval' || args.some((a) => a.text === '--eval' || a.text.startsWith('--eval='));
  if (name === 'perl' || name === 'ruby') return hasInlineFlag(args, { code: 'eE', valued: 'IMmr', attached: 'Fxd' });
  if (name === 'php') return hasInlineFlag(args, { code: 'rBRE', valued: 'cdzf' });
  if (name === 'lua' || name === 'luajit' || name === 'osascript') return hasInlineFlag(args, { code: 'e', valued: 'l' });
  if (name === 'pwsh' || name === 'powershell') return args.some((a) => /^-(?:c|command|e|ec|encodedcommand)$/iu.test(a.text));
  return false;
}

/** awk is a language too: its programs can run commands (system, `|`) and write files (`>`). */
function classifyAwk(name: string, args: Arg[], verdict: Verdict): void {
  let program: Arg | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]?.text ?? '';
    if (a === '--') {
      program = args[i + 1];
      break;
    }
    if (a === '-e' || a === '--source') {
      program = args[i + 1];
      break;
    }
    if (a === '-f' || a.startsWith('--file') || a === '-i' || a === '--include') return; // a script file: nothing to read here
    if (a === '-v' || a === '-F' || a === '--assign' || a === '--field-separator') i += 1;
    else if (!a.startsWith('-') || a === '-') {
      program = args[i];
      break;
    }
  }
  if (!program) return;
  if (program.dynamic) return verdict.add('destructive', `${name} runs inline code computed at run time`);
  const code = program.text;
  if (/\bsystem\s*\(/u.test(code) || /\|\s*getline/u.test(code) || /\b(?:print|printf)\b[^;{}\n]*(?:>|\|)/u.test(code)) {
    verdict.add('destructive', `${name} runs inline code that runs commands or writes files`);
  }
}

// --- copies and links onto existing files ---

/** Operands after options, skipping the values of options that take one. */
function operandsAfterOptions(args: Arg[], spec: OptionSpec): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (!a) continue;
    if (a.text === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a.text.startsWith('--')) {
      if (spec.long?.includes(a.text) === true) i += 1;
      continue;
    }
    if (a.text.startsWith('-') && a.text.length > 1) {
      const valued = [...a.text.slice(1)].findIndex((ch) => spec.short?.includes(ch) === true);
      if (valued === a.text.length - 2) i += 1;
      continue;
    }
    out.push(a);
  }
  return out;
}

function targetDirectoryOption(args: Arg[]): Arg | null {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (!a) continue;
    if (a.text === '-t' || a.text === '--target-directory') return args[i + 1] ?? null;
    if (a.text.startsWith('--target-directory=')) return { ...a, text: a.text.slice('--target-directory='.length) };
    if (/^-t./u.test(a.text)) return { ...a, text: a.text.slice(2) };
  }
  return null;
}

function isDirectoryIn(cwd: string | undefined, p: string): boolean {
  if (!cwd) return false;
  try {
    return fs.statSync(path.resolve(cwd, p)).isDirectory();
  } catch {
    return false;
  }
}

/** cp / install / ln -f: each destination they would replace is checked like a `>` redirection. */
function checkCopyDestinations(name: string, args: Arg[], spec: OptionSpec, scope: Scope): void {
  const operands = operandsAfterOptions(args, spec);
  const targetDir = targetDirectoryOption(args);
  const dest = operands.at(-1);
  let sources = operands;
  let dir: Arg;
  if (targetDir) dir = targetDir;
  else if (!dest) return;
  else if (operands.length === 1) {
    if (name !== 'ln -f') return;
    dir = { ...dest, dynamic: false, glob: false, text: '.' }; // `ln -sf ../x` links into the current folder
  } else {
    sources = operands.slice(0, -1);
    if (!isDirectoryIn(scope.cwd, dest.text) && !dest.text.endsWith('/')) return checkWriteTarget(dest, true, scope, name);
    dir = dest;
  }
  for (const source of sources) {
    const base = path.posix.basename(source.text.replace(/\/+$/u, ''));
    const into: Arg = { ...source, dynamic: source.dynamic || dir.dynamic, glob: source.glob || dir.glob, text: path.posix.join(dir.text, base) };
    checkWriteTarget(into, true, scope, name);
  }
}

function classifyCopy(name: string, args: Arg[], scope: Scope): void {
  if (args.some((a) => a.text === '-n' || a.text === '--no-clobber' || a.text === '--update=none')) return;
  if (name === 'install' && args.some((a) => a.text === '-d' || a.text === '--directory')) return;
  const spec: OptionSpec = name === 'install' ? { short: 'mogSt', long: ['--mode', '--owner', '--group', '--suffix', '--target-directory'] } : { short: 'St', long: ['--suffix', '--target-directory'] };
  checkCopyDestinations(name, args, spec, scope);
}

function classifyLink(args: Arg[], scope: Scope): void {
  const operands = new Set(operandsAfterOptions(args, { short: 'St', long: ['--suffix', '--target-directory'] }));
  const force = args.some((a) => !operands.has(a) && (a.text === '--force' || /^-[A-Za-z]*f/u.test(a.text)));
  if (force) checkCopyDestinations('ln -f', args, { short: 'St', long: ['--suffix', '--target-directory'] }, scope);
}

function classifyRsync(args: Arg[], verdict: Verdict): void {
  const flag = args.find((a) => a.text.startsWith('--delete') || a.text === '--del' || a.text === '--remove-source-files');
  if (flag) verdict.add('destructive', `rsync ${flag.text.split('=')[0] ?? flag.text} deletes files`);
}

// --- paths that leave the task folder ---

function isInsideOrEqual(folder: string, p: string): boolean {
  const rel = path.relative(folder, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Words that name files outside the task folder where they matter: `../` climbing out of it, the
 * home folder, Folio's data folder (keys, other tasks). Other absolute paths (/usr/bin, /tmp) stay
 * ordinary; the sandbox, where there is one, keeps them read-only.
 */
function checkOutsidePath(word: Arg, scope: Scope): void {
  const candidates = [word.text];
  const eq = word.text.indexOf('=');
  if (eq > 0) candidates.push(word.text.slice(eq + 1)); // --file=../x, VAR=~/x
  const home = os.homedir();
  for (const t of candidates) {
    let abs: string | null = null;
    const homeWord = /^(?:~|\$\{?HOME\}?)(?=\/|$)/u.exec(t);
    if (homeWord) abs = path.join(home, t.slice(homeWord[0].length));
    else if (/^~[A-Za-z0-9_.-]+(?:\/|$)/u.test(t)) {
      scope.verdict.add('destructive', `touches files outside the task folder (${t})`);
      return;
    } else if (word.dynamic) continue;
    else if (t.startsWith('/')) abs = path.normalize(t);
    else if (t === '..' || t.startsWith('../')) abs = scope.cwd ? path.resolve(scope.cwd, t) : '/..';
    if (abs === null) continue;
    if (scope.cwd && isInsideFolder(scope.cwd, abs)) continue;
    const relative = t.startsWith('..');
    const inHome = home !== '/' && isInsideOrEqual(home, abs);
    const inProtected = scope.protectedPaths.some((p) => isInsideOrEqual(path.resolve(p), abs) || isInsideFolder(p, abs));
    if (relative || homeWord || inHome || inProtected) {
      scope.verdict.add('destructive', `touches files outside the task folder (${t})`);
      return;
    }
  }
}

// --- file writes (redirections and tee) ---

function checkWriteTarget(target: Arg, truncating: boolean, scope: Scope, via: string): void {
  const { verdict, cwd } = scope;
  const t = target.text;
  if (target.dynamic || target.glob) {
    verdict.add('destructive', `${via} writes to a path computed at run time (${t})`);
    return;
  }
  if (BLOCK_DEVICE.test(t)) {
    verdict.add('blocked', `${via} writes to the block device ${t}`);
    return;
  }
  if (HARMLESS_DEVICES.test(t)) return;
  if (t.startsWith('/dev/')) {
    verdict.add('destructive', `${via} writes to the device ${t}`);
    return;
  }
  const expanded = t === '~' || t.startsWith('~/') ? path.join(os.homedir(), t.slice(1)) : t;
  if (t.startsWith('~') && expanded === t) {
    verdict.add('destructive', `${via} writes into a home folder (${t})`);
    return;
  }
  if (!cwd) {
    if (path.isAbsolute(expanded)) verdict.add('destructive', `${via} writes to ${t}, outside the working folder`);
    return;
  }
  const abs = path.resolve(cwd, expanded);
  if (!isInsideFolder(cwd, abs)) {
    verdict.add('destructive', `${via} writes to ${t}, outside the working folder`);
    return;
  }
  let stat: fs.Stats | null = null;
  try {
    stat = fs.lstatSync(abs);
  } catch {
    stat = null;
  }
  if (stat?.isSymbolicLink()) verdict.add('destructive', `${via} writes through the symbolic link ${t}`);
  else if (stat?.isFile() && truncating) verdict.add('destructive', `${via} overwrites the existing file ${t}`);
}

function isInsideFolder(folder: string, abs: string): boolean {
  const real = (p: string): string => {
    try {
      return fs.realpathSync.native(p);
    } catch {
      const parent = path.dirname(p);
      return parent === p ? p : path.join(real(parent), path.basename(p));
    }
  };
  const rel = path.relative(real(folder), real(abs));
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}
