// Rules for programs that run code given to them: shells, interpreters with inline programs,
// awk, editors. Code in an argument cannot be checked, so it needs a person's explicit yes.
import { firstOperand, type OptionSpec } from './paths';
import type { Scope } from './scope';
import type { Arg } from './syntax';
import { commandName } from './wrappers';

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'posh', 'rbash']);
const INTERPRETERS = new Set(['python', 'python2', 'python3', 'perl', 'ruby', 'node', 'nodejs', 'php', 'lua', 'tclsh', 'osascript', 'pwsh']);
export const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);

/** Whether `name` runs a program file given as its first operand (a shell, an interpreter). */
export function runsScriptFile(name: string): boolean {
  return SHELLS.has(name) || INTERPRETERS.has(name) || /^(?:python|pypy)[\d.]*$/u.test(name) || ['deno', 'bun', 'tsx', 'ts-node'].includes(name);
}

const SHELL_OPTIONS: OptionSpec = { short: 'oO', long: ['--rcfile', '--init-file'] };

export function readsScriptFromStdin(argv: Arg[]): boolean {
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

export function classifyShell(name: string, args: Arg[], { verdict }: Scope): void {
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

export function classifySourceBuiltin(name: string, args: Arg[], { verdict }: Scope): void {
  const script = args[0];
  if (!script || script.text === '-' || isRemoteSource(script)) {
    verdict.add('blocked', `${name} would run code that is not a file in the folder (${script?.text ?? 'standard input'})`);
  }
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

export function runsInlineCode(name: string, args: Arg[]): boolean {
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
export function classifyAwk(name: string, args: Arg[], { verdict }: Scope): void {
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

const VI_FAMILY = new Set(['vi', 'vim', 'nvim', 'gvim', 'vimdiff', 'view', 'rvim', 'ex', 'exim', 'evim']);

/**
 * Editors run their own commands, and those run programs (`:!id`, `:r !id`, vim -c, emacs --eval).
 * Non-interactive use of an editor is scripting with it; a plain `vim file` would only wait for a
 * terminal that is not there.
 */
export function classifyEditor(name: string, args: Arg[], { verdict }: Scope): void {
  if (name === 'ed' || name === 'red' || name === 'ex') return verdict.add('destructive', `${name} runs editing commands, which can run programs`);
  if (VI_FAMILY.has(name)) {
    const scripted = args.find((a) => /^(?:-[A-Za-z]*[cSseEu]|--cmd|-es|-Es|--not-a-term|\+.+)$/u.test(a.text));
    if (scripted) verdict.add('destructive', `${name} ${scripted.text} runs editor commands, which can run programs`);
    return;
  }
  if (name === 'emacs' || name === 'emacsclient') {
    const scripted = args.find((a) => /^(?:--eval|-eval|--batch|-batch|--script|-l|--load|-f|--funcall|-e)(?:=|$)/u.test(a.text));
    if (scripted) verdict.add('destructive', `${name} ${scripted.text} runs Lisp code`);
  }
}

export function isEditor(name: string): boolean {
  return VI_FAMILY.has(name) || ['ed', 'red', 'emacs', 'emacsclient'].includes(name);
}
