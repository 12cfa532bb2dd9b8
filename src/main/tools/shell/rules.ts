// The per-command rules, as one table: a program's name → what it is rated and what it needs (the
// network). `judgeCommand` applies the table to one simple command whose wrappers are already peeled.
import { BLOCK_DEVICE, checkWriteTarget, firstOperand } from './paths';
import { AWKS, classifyAwk, classifyEditor, classifyShell, classifySourceBuiltin, isEditor, runsInlineCode, SHELLS } from './rules-code';
import * as files from './rules-files';
import { classifyGit, classifyInPlace, classifySed, classifySsh, gitSubcommand } from './rules-tools';
import * as run from './rules-run';
import { deeper, type Scope } from './scope';
import type { Arg } from './syntax';
import { commandName } from './wrappers';

type Rule = (name: string, args: Arg[], scope: Scope) => void;

const blocked =
  (why: string): Rule =>
  (name, _args, { verdict }) =>
    verdict.add('blocked', `${name} ${why}`);
const destructive =
  (why: string): Rule =>
  (name, _args, { verdict }) =>
    verdict.add('destructive', `${name} ${why}`);

const trap: Rule = (_name, args, scope) => {
  const action = args[0];
  if (!action || action.text.startsWith('-')) return;
  if (action.dynamic) scope.verdict.add('destructive', 'trap runs a command computed at run time');
  else scope.judgeSource(action.text, deeper(scope));
};

const alias: Rule = (_name, args, scope) => {
  for (const a of args) {
    const eq = a.text.indexOf('=');
    if (eq > 0) scope.judgeSource(a.text.slice(eq + 1), deeper(scope));
  }
};

const kill: Rule = (_name, args, { verdict }) => {
  const targets = args.slice(firstOperand(args, { short: 'sn' }));
  if (args.some((a) => a.text === '-1') && targets.length === 0) return verdict.add('blocked', 'kill -1 kills every process');
  if (targets.some((a) => a.text === '-1' || a.text === '0')) verdict.add('blocked', 'kill would signal every process');
};

/** Downloads saved to a file are writes like any other (and may be run next: write-then-run). */
const download: Rule = (name, args, scope) => {
  const flags = name === 'wget' ? ['-O', '--output-document'] : ['-o', '--output'];
  args.forEach((a, i) => {
    const next = args[i + 1];
    if (flags.includes(a.text) && next) checkWriteTarget(next, true, scope, `${name} ${a.text}`);
    else if (a.text.startsWith(`${flags[1] ?? ''}=`)) checkWriteTarget({ ...a, text: a.text.slice(a.text.indexOf('=') + 1) }, true, scope, name);
  });
};

/** Programs whose every use is rated, whatever their arguments. */
const RULES = new Map<string, Rule>();
const set = (names: string[], rule: Rule): void => names.forEach((n) => RULES.set(n, rule));

set(['sudo', 'doas', 'su', 'pkexec', 'run0'], blocked('runs commands with elevated privileges'));
set(['shutdown', 'reboot', 'halt', 'poweroff'], blocked('powers off or restarts the machine'));
set(['mke2fs', 'mkswap', 'wipefs', 'blkdiscard'], blocked('erases a file system or disk'));
set(['source', '.'], (name, args, scope) => classifySourceBuiltin(name, args, scope));
set(['trap'], trap);
set(['alias'], alias);
set(['kill'], kill);
set(['rm'], files.rm);
set(['rmdir', 'unlink', 'shred', 'srm', 'wipe', 'truncate'], destructive('deletes or destroys file contents'));
set(['mv'], files.mv);
set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl'], files.permissions);
set(['fdisk', 'sfdisk', 'cfdisk', 'parted', 'sgdisk', 'gdisk'], destructive('edits disk partitions'));
set(['pkill', 'killall'], destructive('kills processes by name'));
set(['find'], files.find);
set(['git'], (_name, args, scope) => classifyGit(args, scope));
set(['dd'], files.dd);
set(['sed'], (_name, args, scope) => classifySed(args, scope));
set(['cp', 'install'], files.copy);
set(['ln'], files.link);
set(['rsync'], files.rsync);
set(['tee'], files.tee);
set(['tar', 'bsdtar', 'gtar'], files.tar);
set(['zip'], files.zip);
set(['ssh', 'scp', 'sftp', 'autossh'], classifySsh);
set(['curl', 'wget'], download);
set(['make', 'gmake', 'bmake'], run.make);
set(['man'], run.man);
set(['gdb', 'lldb', 'cgdb'], run.debuggerRule);
set(['sqlite3', 'sqlite'], run.sqlite);
set(['m4', 'gm4'], run.m4);

/** Programs that write what they are given to a device when asked to. */
const DEVICE_WRITERS = new Set(['cp', 'tee', 'install', 'shred', 'pv', 'ddrescue']);

/** Judges one simple command (wrappers already peeled). */
export function judgeCommand(argv: Arg[], scope: Scope): void {
  const nameArg = argv[0];
  if (!nameArg) return;
  const { verdict } = scope;
  if (nameArg.dynamic) return verdict.add('destructive', `the command name is computed at run time (${nameArg.text})`);
  if (nameArg.glob || nameArg.braces) return verdict.add('destructive', `the command name ${nameArg.text} is expanded by the shell`);
  const name = commandName(argv).toLowerCase();
  const args = argv.slice(1);

  if (name === 'eval') return verdict.add('blocked', 'eval runs a string as code');
  if (name.startsWith('mkfs')) return verdict.add('blocked', `${name} erases a file system or disk`);
  if (SHELLS.has(name)) return classifyShell(name, args, scope);
  if (AWKS.has(name)) return classifyAwk(name, args, scope);
  if (isEditor(name)) return classifyEditor(name, args, scope);
  if (runsInlineCode(name, args)) verdict.add('destructive', `${name} runs inline code`);
  if (name === 'perl') return classifyInPlace('perl', args, scope);
  if (DEVICE_WRITERS.has(name)) {
    const device = args.find((a) => BLOCK_DEVICE.test(a.text));
    if (device) return verdict.add('blocked', `${name} writes to the block device ${device.text}`);
  }
  RULES.get(name)?.(name, args, scope);
}

// --- what a command needs: the network ---

const NETWORK_PROGRAMS = new Set(['curl', 'wget', 'ssh', 'scp', 'sftp', 'autossh', 'nc', 'ncat', 'netcat', 'telnet', 'ftp', 'aria2c', 'http', 'https', 'xh', 'ping', 'dig', 'nslookup', 'host', 'npx', 'bunx', 'uvx', 'pnpx']);
/** Subcommands that download or upload, per package manager or version control tool. */
const NETWORK_SUBCOMMANDS: Record<string, readonly string[]> = {
  git: ['clone', 'fetch', 'pull', 'push', 'ls-remote', 'submodule', 'remote', 'lfs'],
  npm: ['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'publish', 'view', 'info', 'outdated', 'audit', 'exec', 'create', 'init', 'login', 'dist-tag'],
  pnpm: ['install', 'i', 'add', 'update', 'up', 'dlx', 'publish', 'create', 'outdated', 'audit', 'fetch'],
  yarn: ['install', 'add', 'upgrade', 'up', 'dlx', 'publish', 'create', 'info', 'outdated', 'audit'],
  bun: ['install', 'i', 'add', 'update', 'x', 'create', 'publish'],
  pip: ['install', 'download', 'search', 'index'],
  pip3: ['install', 'download', 'search', 'index'],
  pipx: ['install', 'run', 'upgrade', 'inject'],
  uv: ['pip', 'add', 'sync', 'lock', 'tool', 'run', 'venv', 'python'],
  poetry: ['install', 'add', 'update', 'lock', 'publish'],
  cargo: ['install', 'fetch', 'update', 'add', 'publish', 'search'],
  go: ['get', 'install', 'mod'],
  gem: ['install', 'update', 'fetch', 'push'],
  bundle: ['install', 'update'],
  composer: ['install', 'require', 'update', 'create-project'],
  conda: ['install', 'create', 'update'],
  docker: ['pull', 'push', 'login', 'search'],
  podman: ['pull', 'push', 'login', 'search'],
  brew: ['install', 'upgrade', 'update', 'fetch', 'tap'],
  'apt-get': ['install', 'update', 'upgrade', 'download', 'source'],
  apt: ['install', 'update', 'upgrade', 'download', 'source'],
  gh: ['repo', 'pr', 'issue', 'api', 'release', 'run', 'gist', 'auth'],
  deno: ['install', 'cache', 'add'],
};

/** The program (and subcommand) that needs the network, e.g. `curl`, `git clone`, `npm install`; null when none does. */
export function networkNeed(argv: Arg[]): string | null {
  const name = commandName(argv).toLowerCase();
  const args = argv.slice(1);
  if (NETWORK_PROGRAMS.has(name)) return name;
  if (name === 'rsync' && args.some((a) => /^[^/-][^/]*:|^rsync:\/\//u.test(a.text))) return 'rsync';
  if (/^python[\d.]*$/u.test(name) && args[0]?.text === '-m' && /^pip/u.test(args[1]?.text ?? '') && NETWORK_SUBCOMMANDS.pip?.includes(args[2]?.text ?? '')) {
    return `${name} -m pip ${args[2]?.text ?? ''}`;
  }
  const subs = NETWORK_SUBCOMMANDS[name];
  if (!subs) return null;
  const index = name === 'git' ? gitSubcommand(args).index : firstOperand(args);
  const sub = args[index]?.text ?? (name === 'yarn' ? 'install' : '') // bare `yarn` installs;
  return subs.includes(sub) ? `${name} ${sub}` : null;
}
