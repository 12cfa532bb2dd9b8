// Programs and settings through which a plain-looking command runs other code: environment variables
// that name a program or a library to load (GIT_PAGER, LD_PRELOAD ...), and tools with a way to run a
// command of their own (make --eval, man -P, gdb -ex, sqlite3 .shell, m4 syscmd, git difftool -x).
// Each is rated as running code (destructive): a grant on the command must not cover what it runs.
import type { Scope } from './scope';
import type { Arg } from './syntax';

/**
 * Variables a program reads as a command to run, a library to load, or more configuration. Set on
 * a command (`GIT_PAGER=x git log`), through `env`, or exported, each makes an ordinary command run
 * code that the command line does not show.
 */
const CODE_ENV =
  /^(?:GIT_(?:PAGER|EDITOR|SEQUENCE_EDITOR|SSH|SSH_COMMAND|EXTERNAL_DIFF|ASKPASS|PROXY_COMMAND|EXEC_PATH|TEMPLATE_DIR|CONFIG|CONFIG_GLOBAL|CONFIG_SYSTEM|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|DIR|WORK_TREE)|PAGER|MANPAGER|MANOPT|SYSTEMD_PAGER|EDITOR|VISUAL|SSH_ASKPASS|SUDO_ASKPASS|LESSOPEN|LESSCLOSE|LESSKEY|LESS|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_[A-Z_]+|BASH_ENV|ENV|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PS4|IFS|NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PYTHONINSPECT|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|GCONV_PATH|MAKEFLAGS|MFLAGS|GNUMAKEFLAGS|MAKEFILES|BROWSER|TAR_OPTIONS|ZIPOPT|UNZIP|GZIP|XZ_OPT|RSYNC_RSH|CVS_RSH|GDBHISTFILE|SQLITE_HISTORY|NPM_CONFIG_[A-Z_]+|npm_config_[a-z_]+)$/u;

/** The variable named by `NAME=value`, or null. */
export function assignedName(text: string): string | null {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/u.exec(text);
  return m ? (m[1] ?? null) : null;
}

export function isCodeEnv(name: string): boolean {
  return CODE_ENV.test(name);
}

/** Rates setting one variable (`NAME=value` on a command, through env, export or declare). */
export function checkAssignment(name: string, scope: Scope): void {
  if (isCodeEnv(name)) scope.verdict.add('destructive', `sets ${name}, through which the command runs another program or loads code`);
}

export function make(_name: string, args: Arg[], scope: Scope): void {
  const { verdict } = scope;
  for (const a of args) {
    const t = a.text;
    if (t === '--eval' || t.startsWith('--eval=') || t === '-E' || /^-E./u.test(t)) verdict.add('destructive', 'make --eval runs a recipe given on the command line');
    const name = assignedName(t);
    if (name === 'SHELL' || name === '.SHELLFLAGS' || name === 'MAKESHELL') verdict.add('destructive', `make ${name}= changes the program every recipe runs with`);
    else if (name !== null) checkAssignment(name, scope);
  }
}

export function man(_name: string, args: Arg[], { verdict }: Scope): void {
  const hit = args.find((a) => (/^-[A-Za-z]*[PH]/u.test(a.text) && !a.text.startsWith('--')) || /^--(?:pager|html)(?:=|$)/u.test(a.text));
  if (hit) verdict.add('destructive', `man ${hit.text} names a program to run`);
}

export function debuggerRule(name: string, args: Arg[], { verdict }: Scope): void {
  const hit = args.find((a) => /^(?:-ex|-iex|-x|-ix|-eix|-eiex|--eval-command|--init-eval-command|--command|--init-command|-batch|--batch|-o|-O|-s|-S|--source|--one-line|--source-before-file|--one-line-before-file)(?:=|$)/u.test(a.text));
  if (hit) verdict.add('destructive', `${name} ${hit.text} runs debugger commands, which can run programs`);
}

/** sqlite3 dot-commands that run programs, load libraries or write files. */
export function sqlite(_name: string, args: Arg[], { verdict }: Scope): void {
  const hit = args.find((a) => /^\s*\.(?:shell|system|load|output|once|excel|import|backup|save|read|cd|log|trace)\b/iu.test(a.text) || a.text === '-cmd' || a.text === '--cmd' || a.text === '-init');
  if (hit) verdict.add('destructive', `sqlite3 ${hit.text.trim().split(/\s+/u)[0] ?? ''} runs a program, loads code or writes files`);
}

export function m4(name: string, _args: Arg[], { verdict }: Scope): void {
  verdict.add('destructive', `${name} macros can run commands (syscmd, esyscmd)`);
}

const MAX_PARALLEL = 16;

/** `xargs -P 0` (as many at once as it can) or a large or computed -P: why it has no bound, or null. */
export function unboundedParallel(args: Arg[]): string | null {
  for (let i = 0; i < args.length; i += 1) {
    const t = args[i]?.text ?? '';
    if (!t.startsWith('-') || t === '--') break;
    let value: string | null = null;
    let dynamic = args[i]?.dynamic === true;
    if (t === '-P' || t === '--max-procs') {
      value = args[i + 1]?.text ?? null;
      dynamic = args[i + 1]?.dynamic === true;
    } else if (t.startsWith('--max-procs=')) value = t.slice('--max-procs='.length);
    else if (/^-P.+/u.test(t)) value = t.slice(2);
    if (value === null) continue;
    const n = Number(value);
    if (dynamic || !Number.isInteger(n) || n === 0 || n > MAX_PARALLEL) return `xargs -P ${value} starts processes without a useful bound`;
  }
  return null;
}
