// Rules for tools with a language or configuration of their own that can run programs or write
// files: git (settings naming programs), ssh and friends (ProxyCommand), sed (`e`, `w`).
import { checkOutsidePath, checkWriteTarget } from './paths';
import type { Scope } from './scope';
import type { Arg } from './syntax';

const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);

/** git's subcommand and where it sits, past the global options (-C dir, -c x=y, --git-dir ...). */
export function gitSubcommand(args: Arg[]): { index: number; globals: Arg[] } {
  let i = 0;
  while (i < args.length) {
    const a = args[i]?.text ?? '';
    if (GIT_GLOBAL_WITH_VALUE.has(a)) i += 2;
    else if (a.startsWith('-')) i += 1;
    else break;
  }
  return { index: i, globals: args.slice(0, i) };
}

/** Settings through which git runs a program, or reads more settings from elsewhere. */
const GIT_PROGRAM_KEY =
  /^(?:alias\..+|core\.(?:pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy|attributesfile|worktree)|pager\..+|sequence\.editor|diff\..*(?:textconv|command|external)|diff\.external|merge\..+\.driver|filter\..+|credential\..*|gpg\..*program|ssh\.variant|include\..+|includeif\..+|uploadpack\..+|receivepack\..+|remote\..+\.(?:uploadpack|receivepack|vcs)|url\..+|protocol\..+|http\..*(?:proxy|sslkey|sslcert|cookiefile)|init\.templatedir|instaweb\..+|man\..+|web\.browser|browser\..+|sendemail\..+)$/iu;

export function classifyGit(args: Arg[], scope: Scope): void {
  const { verdict } = scope;
  const { index, globals } = gitSubcommand(args);
  for (const g of globals) {
    const option = g.text.split('=')[0] ?? g.text;
    if (option === '-c' || option === '--config-env') verdict.add('destructive', `git ${option} sets configuration, which can make git run any program`);
    if (option === '--exec-path' && g.text.includes('=')) verdict.add('destructive', 'git --exec-path runs git commands from another folder');
  }
  const sub = args[index]?.text;
  const rest = args.slice(index + 1).map((a) => a.text);
  const has = (...flags: string[]): boolean => rest.some((r) => flags.includes(r));
  switch (sub) {
    case 'config':
      return classifyGitConfig(args.slice(index + 1), scope);
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
      if (rest.some((r) => r.startsWith('--receive-pack') || r.startsWith('--exec'))) verdict.add('destructive', 'git push --receive-pack names a program to run');
      break;
    case 'fetch':
    case 'pull':
    case 'clone':
    case 'ls-remote':
    case 'archive':
      if (rest.some((r) => /^(?:--upload-pack|-u|--exec|--template|--config|-c)(?:=|$)/u.test(r))) verdict.add('destructive', `git ${sub} is given a program or configuration to run`);
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
    case 'difftool':
    case 'mergetool':
      if (rest.some((r) => /^(?:-x|--extcmd|-t|--tool|--gui|-g)(?:=|$)|^-x./u.test(r))) verdict.add('destructive', `git ${sub} runs a program named on the command line or in configuration`);
      break;
    case 'grep':
      if (rest.some((r) => /^(?:-O|--open-files-in-pager)/u.test(r))) verdict.add('destructive', 'git grep -O runs a program on the files it finds');
      break;
    case 'submodule':
      if (rest.includes('foreach')) verdict.add('destructive', 'git submodule foreach runs a command in each submodule');
      break;
    case 'filter-branch':
    case 'bisect':
    case 'rebase':
      if (sub !== 'rebase' || rest.some((r) => r === '-x' || r.startsWith('--exec'))) verdict.add('destructive', `git ${sub} runs commands given to it`);
      break;
    default:
      break;
  }
}

/** `git config` that writes a setting naming a program, or writes outside the repository's own config. */
function classifyGitConfig(args: Arg[], { verdict }: Scope): void {
  const texts = args.map((a) => a.text);
  if (texts.some((t) => ['--global', '--system', '--file', '-f', '--blob'].includes(t) || t.startsWith('--file='))) {
    verdict.add('destructive', 'git config writes configuration outside this repository');
  }
  const reading = texts.some((t) => /^(?:--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--show-origin|--show-scope|--name-only)$/u.test(t));
  const words = texts.filter((t) => !t.startsWith('-'));
  if (words[0] === 'get' || words[0] === 'list') return;
  const key = ['set', 'unset', 'rename-section', 'remove-section'].includes(words[0] ?? '') ? words[1] : words[0];
  if (key === undefined || (reading && words.length <= 1)) return;
  if (words.length >= 2 || words[0] === 'set' || texts.includes('--add') || texts.includes('--replace-all')) {
    if (GIT_PROGRAM_KEY.test(key)) verdict.add('destructive', `git config ${key} names a program git will run`);
  }
}

/** ssh options naming a local program (ProxyCommand, LocalCommand ...) or another config file. */
const SSH_PROGRAM_OPTION = /^(?:proxycommand|localcommand|permitlocalcommand|knownhostscommand|proxyjump|match|include|securitykeyprovider|pkcs11provider|controlpath|identityagent)\b/iu;

export function classifySsh(name: string, args: Arg[], { verdict }: Scope): void {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]?.text ?? '';
    const option = a === '-o' ? (args[i + 1]?.text ?? '') : a.startsWith('-o') ? a.slice(2) : null;
    if (option !== null && SSH_PROGRAM_OPTION.test(option.trim())) return verdict.add('destructive', `${name} -o ${option.split(/[=\s]/u)[0] ?? option} runs a local program`);
    if (a === '-F' || (a.startsWith('-F') && a.length > 2)) return verdict.add('destructive', `${name} -F reads a configuration that can run programs`);
    if ((name === 'scp' || name === 'sftp') && (a === '-S' || a === '-D')) return verdict.add('destructive', `${name} ${a} names a program to run`);
  }
}

export function classifyInPlace(name: string, args: Arg[], { verdict }: Scope): void {
  for (const a of args) {
    if (a.text === '--') break;
    if (a.text === '--in-place' || a.text.startsWith('--in-place=') || /^-[a-hj-zA-HJ-Z]*i/u.test(a.text)) {
      return verdict.add('destructive', `${name} -i edits files in place`);
    }
  }
}

/** sed's scripts: the `-e` values and `--expression=`s, else the first operand. */
function sedScripts(args: Arg[]): { scripts: Arg[]; fromFile: boolean } {
  const scripts: Arg[] = [];
  let fromFile = false;
  let firstOperand: Arg | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (!a) continue;
    if (a.text === '-e' || a.text === '--expression') {
      const value = args[i + 1];
      if (value) scripts.push(value);
      i += 1;
    } else if (a.text.startsWith('--expression=')) scripts.push({ ...a, text: a.text.slice('--expression='.length) });
    else if (/^-[nrEsuz]*e./u.test(a.text)) scripts.push({ ...a, text: a.text.slice(a.text.indexOf('e') + 1) });
    else if (a.text === '-f' || a.text.startsWith('--file') || /^-[nrEsuz]*f/u.test(a.text)) fromFile = true;
    else if (a.text === '-l' || a.text === '--line-length') i += 1;
    else if (!a.text.startsWith('-') || a.text === '-') firstOperand ??= a;
  }
  if (scripts.length === 0 && firstOperand && !fromFile) scripts.push(firstOperand);
  return { scripts, fromFile };
}

/** The file names a sed script reads (`r`, `R`) and writes (`w`, `W`, `s///w`), and whether it runs commands (`e`, `s///e`). */
export function readSedScript(script: string): { runs: boolean; writes: string[]; reads: string[]; unreadable: boolean } {
  const out = { runs: false, writes: [] as string[], reads: [] as string[], unreadable: false };
  const restOfLine = (i: number): [string, number] => {
    const end = script.indexOf('\n', i);
    const stop = end === -1 ? script.length : end;
    return [script.slice(i, stop).trim(), stop];
  };
  let i = 0;
  while (i < script.length) {
    const ch = script[i] ?? '';
    if (/[\s;{}!,0-9$~+]/u.test(ch)) i += 1;
    else if (ch === '#') i = restOfLine(i + 1)[1];
    else if (ch === '/' || ch === '\\') {
      const delim = ch === '\\' ? (script[i + 1] ?? '/') : '/';
      i = skipDelimited(script, ch === '\\' ? i + 2 : i + 1, delim);
      if (i < 0) return { ...out, unreadable: true };
      while (script[i] === 'I' || script[i] === 'M') i += 1;
    } else if (ch === 's' || ch === 'y') {
      const delim = script[i + 1] ?? '';
      if (delim === '' || delim === '\n' || delim === '\\') return { ...out, unreadable: true };
      let j = skipDelimited(script, i + 2, delim);
      if (j >= 0) j = skipDelimited(script, j, delim);
      if (j < 0) return { ...out, unreadable: true };
      i = j;
      if (ch === 'y') continue;
      while (i < script.length && /[gpiImMe0-9]/u.test(script[i] ?? '')) {
        if (script[i] === 'e') out.runs = true;
        i += 1;
      }
      if (script[i] === 'w') {
        const [file, stop] = restOfLine(i + 1);
        out.writes.push(file);
        i = stop;
      }
    } else if (ch === 'e') {
      out.runs = true;
      i = restOfLine(i + 1)[1];
    } else if (ch === 'w' || ch === 'W' || ch === 'r' || ch === 'R') {
      const [file, stop] = restOfLine(i + 1);
      (ch === 'w' || ch === 'W' ? out.writes : out.reads).push(file);
      i = stop;
    } else if ('aicbtT:'.includes(ch)) {
      // Text (a, i, c) and labels (b, t, T, :) run to the end of the line; labels also end at `;`.
      const [, stop] = restOfLine(i + 1);
      const semi = 'btT:'.includes(ch) ? script.indexOf(';', i) : -1;
      i = semi !== -1 && semi < stop ? semi + 1 : stop;
    } else if ('dDgGhHlnNpPqQxzF='.includes(ch) || ch === 'L') i += 1;
    else return { ...out, unreadable: true };
  }
  return out;
}

/** Index just past the closing delimiter, or -1 when there is none. */
function skipDelimited(text: string, from: number, delim: string): number {
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === delim) return i + 1;
    else if (text[i] === '\n') return -1;
  }
  return -1;
}

export function classifySed(args: Arg[], scope: Scope): void {
  classifyInPlace('sed', args, scope);
  const { scripts, fromFile } = sedScripts(args);
  if (fromFile) scope.verdict.add('destructive', 'sed -f runs a script file, which can run commands or write files');
  for (const script of scripts) {
    if (script.dynamic) {
      scope.verdict.add('destructive', 'sed runs a script computed at run time');
      continue;
    }
    const read = readSedScript(script.text);
    if (read.unreadable) scope.verdict.add('destructive', `the sed script ${JSON.stringify(script.text)} could not be checked`);
    if (read.runs) scope.verdict.add('destructive', 'sed runs shell commands (the e command or the s///e flag)');
    for (const file of read.writes) checkWriteTarget({ ...script, text: file, glob: false }, true, scope, 'sed w');
    for (const file of read.reads) checkOutsidePath({ ...script, text: file }, scope);
  }
}
