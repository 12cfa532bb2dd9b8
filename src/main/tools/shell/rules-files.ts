// Rules for commands that delete, move, copy, archive or find files: what they would destroy, and
// the options through which they run other programs (tar, zip, rsync, find).
import fs from 'node:fs';
import path from 'node:path';
import { BLOCK_DEVICE, catastrophicTarget, checkWriteTarget, type OptionSpec, scanArgs } from './paths';
import { deeper, type Scope } from './scope';
import type { Arg } from './syntax';

type Rule = (name: string, args: Arg[], scope: Scope) => void;

export const rm: Rule = (_name, args, { verdict }) => {
  if (args.some((a) => a.text === '--no-preserve-root')) return verdict.add('blocked', 'rm --no-preserve-root would delete the whole file system');
  for (const target of scanArgs(args).operands) {
    const hit = catastrophicTarget(target);
    if (hit !== null) return verdict.add('blocked', `rm targets ${hit}: the file system root, a home folder or a system folder`);
  }
  verdict.add('destructive', 'rm deletes files');
};

export const mv: Rule = (_name, args, { verdict }) => {
  for (const source of scanArgs(args).operands.slice(0, -1)) {
    const hit = catastrophicTarget(source);
    if (hit !== null) return verdict.add('blocked', `mv moves ${hit}: the file system root, a home folder or a system folder`);
  }
  verdict.add('destructive', 'mv moves or renames files (and can replace the destination)');
};

export const permissions: Rule = (name, args, { verdict }) => {
  const recursive = args.some((a) => /^-[A-Za-z]*R/u.test(a.text) || a.text === '--recursive');
  if (recursive) {
    const hit = scanArgs(args).operands.map(catastrophicTarget).find((t) => t !== null);
    if (hit) return verdict.add('blocked', `${name} -R on ${hit} would change the whole system`);
  }
  verdict.add('destructive', `${name} changes file permissions or ownership`);
};

export const dd: Rule = (_name, args, { verdict }) => {
  const target = args.find((a) => a.text.startsWith('of='))?.text.slice(3) ?? '';
  if (BLOCK_DEVICE.test(target)) return verdict.add('blocked', `dd writes to the block device ${target}`);
  verdict.add('destructive', 'dd writes raw data');
};

export const tee: Rule = (_name, args, scope) => {
  const append = args.some((a) => a.text === '--append' || /^-[A-Za-z]*a/u.test(a.text));
  for (const target of scanArgs(args).operands) checkWriteTarget(target, !append, scope, 'tee');
};

/** find runs commands (-exec, -ok), deletes (-delete) and writes files (-fprint, -fls). */
export const find: Rule = (_name, args, scope) => {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]?.text ?? '';
    if (a === '-delete') scope.verdict.add('destructive', 'find -delete deletes files');
    if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(a)) {
      const file = args[i + 1];
      if (file) checkWriteTarget(file, true, scope, `find ${a}`);
    }
    if (a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') {
      // Rated as running code whatever the program: a grant on it would cover every file it meets,
      // and -execdir resolves the program in each folder it visits (a planted `./x` runs).
      scope.verdict.add('destructive', `find ${a} runs a program for each file it finds`);
      const rest = args.slice(i + 1);
      const end = rest.findIndex((t) => t.text === ';' || t.text === '+');
      const command = end === -1 ? rest : rest.slice(0, end);
      scope.judgeArgv(command, deeper(scope));
      i += command.length + 1;
    }
  }
};

export const rsync: Rule = (_name, args, { verdict }) => {
  const runs = args.find((a) => /^(?:-[A-Za-z]*e|--rsh|--rsync-path)(?:=|$)/u.test(a.text) || /^-[A-Za-z]*e./u.test(a.text));
  if (runs) verdict.add('destructive', `rsync ${runs.text.split('=')[0] ?? runs.text} names a program to run`);
  const flag = args.find((a) => a.text.startsWith('--delete') || a.text === '--del' || a.text === '--remove-source-files');
  if (flag) verdict.add('destructive', `rsync ${flag.text.split('=')[0] ?? flag.text} deletes files`);
};

/** tar options that run a program: on checkpoints, per member, as the compressor, between volumes. */
const TAR_RUNS = /^--(?:checkpoint-action|to-command|use-compress-program|info-script|new-volume-script|rsh-command|rmt-command)(?:=|$)/u;

export const tar: Rule = (_name, args, { verdict }) => {
  const runs = args.find((a, i) => TAR_RUNS.test(a.text) || ((a.text === '-I' || a.text === '-F') && i < args.length - 1) || /^-[IF]./u.test(a.text));
  if (runs) verdict.add('destructive', `tar ${runs.text.split('=')[0] ?? runs.text} runs a program`);
};

export const zip: Rule = (_name, args, { verdict }) => {
  const runs = args.find((a) => /^(?:-TT|--unzip-command)(?:=|$)/u.test(a.text) || a.text.startsWith('-TT'));
  if (runs) verdict.add('destructive', `zip ${runs.text.split('=')[0] ?? runs.text} runs a program to test the archive`);
};

// --- copies and links onto existing files ---

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
  const { operands } = scanArgs(args, spec);
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

export const copy: Rule = (name, args, scope) => {
  if (args.some((a) => a.text === '-n' || a.text === '--no-clobber' || a.text === '--update=none')) return;
  if (name === 'install' && args.some((a) => a.text === '-d' || a.text === '--directory')) return;
  const spec: OptionSpec =
    name === 'install' ? { short: 'mogSt', long: ['--mode', '--owner', '--group', '--suffix', '--target-directory'] } : { short: 'St', long: ['--suffix', '--target-directory'] };
  checkCopyDestinations(name, args, spec, scope);
};

export const link: Rule = (_name, args, scope) => {
  const spec: OptionSpec = { short: 'St', long: ['--suffix', '--target-directory'] };
  const operands = new Set(scanArgs(args, spec).operands);
  const force = args.some((a) => !operands.has(a) && (a.text === '--force' || /^-[A-Za-z]*f/u.test(a.text)));
  if (force) checkCopyDestinations('ln -f', args, spec, scope);
};
