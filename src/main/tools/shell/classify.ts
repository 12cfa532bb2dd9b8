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
  depth: number;
}

export function classifyCommand(command: string, options: ClassifyOptions = {}): Classification {
  const verdict = new Verdict();
  classifySource(command, { verdict, cwd: options.cwd, depth: 0 });
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
  if (argv) classifyArgv(argv, scope);
  for (const redirect of children(stmt, 'Redirs')) classifyRedirect(redirect, argv, scope);
}

function classifyRedirect(redirect: ShNode, argv: Arg[] | null, scope: Scope): void {
  const op = redirectOp(redirect);
  const target = wordToArg(child(redirect, 'Word'));
  if (op === '>&' && /^(?:\d+|-)$/u.test(target.text)) return; // fd duplication, not a file
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
  const core = unwrap(argv);
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
  if (name === 'dd') return classifyDd(args, verdict);
  if (name === 'sed') return classifyInPlace('sed', args, verdict);
  if (name === 'perl') return classifyInPlace('perl', args, verdict);
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
function unwrap(argv: Arg[], depth = 0): Unwrapped {
  const first = argv[0];
  if (!first || depth > MAX_DEPTH) return { kind: 'argv', argv };
  if (first.dynamic) return { kind: 'argv', argv };
  const name = commandName(argv).toLowerCase();
  const args = argv.slice(1);
  const inner = (rest: Arg[]): Unwrapped => (rest.length === 0 ? { kind: 'none' } : unwrap(rest, depth + 1));

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
      return start >= args.length ? { kind: 'none' } : unwrap(args.slice(start), depth + 1);
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
