// Classifies a shell command before it runs: `blocked` never runs, `destructive` needs an explicit,
// warned approval, `standard` is an ordinary command. The command is parsed by a real shell parser
// and every simple command in it (in substitutions, pipelines, lists, loops, functions, subshells)
// is judged; the strongest class wins. What cannot be parsed is treated as destructive.
//
// The parts: syntax.ts (the parser's tree), wrappers.ts (env, nice, xargs ... peeled off),
// rules*.ts (the per-command table), paths.ts (operands and the "inside the task folder" check),
// traits.ts (what a command needs, and the key a grant may be stored under).
import path from 'node:path';
import { checkOutsidePath, checkSensitivePath, checkWriteTarget, resolveWritten, scanArgs } from './paths';
import { judgeCommand } from './rules';
import { readsScriptFromStdin, runsScriptFile } from './rules-code';
import { checkAssignment } from './rules-run';
import { type Classification, deeper, MAX_DEPTH, type Scope, Verdict } from './scope';
import { type Arg, type ShNode, binaryOp, child, children, nodeType, parseShell, redirectOp, text, walk, wordToArg } from './syntax';
import { commandName, unwrap } from './wrappers';

export type { Classification, CommandClass } from './scope';

export interface ClassifyOptions {
  /** The folder the command will run in; needed to tell whether a `>` overwrites an existing file. */
  cwd?: string;
  /** Folders no command argument may point into (Folio's data folder), unless inside `cwd`. */
  protectedPaths?: readonly string[];
}

export function classifyCommand(command: string, options: ClassifyOptions = {}): Classification {
  const verdict = new Verdict();
  classifySource(command, {
    verdict,
    cwd: options.cwd,
    protectedPaths: options.protectedPaths ?? [],
    depth: 0,
    written: new Set(),
    judgeSource: classifySource,
    judgeArgv: classifyArgv,
  });
  return verdict.result();
}

function classifySource(source: string, scope: Scope): void {
  if (scope.depth > MAX_DEPTH) return scope.verdict.add('destructive', 'the command nests too deeply to check');
  let file: ShNode;
  try {
    file = parseShell(source);
  } catch (err) {
    return scope.verdict.add('destructive', `the command could not be parsed (${err instanceof Error ? err.message : 'parse error'})`);
  }
  const functions: ShNode[] = [];
  walk(file, (node, type) => {
    if (type === 'Stmt') classifyStatement(node, scope);
    else if (type === 'BinaryCmd') classifyPipe(node, scope);
    else if (type === 'FuncDecl') {
      classifyFunction(node, scope);
      functions.push(node);
    }
    else if (type === 'WhileClause' || type === 'ForClause') classifyLoop(node, type, scope);
    else if (type === 'Word') checkSensitivePath(wordToArg(node), scope);
    // export / declare / local / readonly NAME=value: the parser's own node, not a command.
    else if (type === 'DeclClause') for (const assign of children(node, 'Args')) checkAssignment(text(child(assign, 'Name'), 'Value'), scope);
  });
  if (functions.length > 1) classifyMutualRecursion(functions, scope);
}

/**
 * Functions that call each other in a cycle and start background jobs or pipelines on the way
 * (`g(){ h & h & }; h(){ g & g & }; g`) multiply like a self-calling one: a fork bomb split in two.
 */
function classifyMutualRecursion(decls: ShNode[], scope: Scope): void {
  const calls = new Map<string, Set<string>>();
  const spawning = new Set<string>();
  for (const decl of decls) {
    const name = text(child(decl, 'Name'), 'Value');
    const body = child(decl, 'Body');
    if (!name || !body) continue;
    const called = new Set<string>();
    walk(body, (node, type) => {
      if (type === 'CallExpr') {
        const callee = callArgs(node)?.[0]?.text;
        if (callee) called.add(callee);
      } else if (type === 'BinaryCmd' && ['|', '|&'].includes(binaryOp(node))) spawning.add(name);
    });
    if (spawnsUnder(body)) spawning.add(name);
    calls.set(name, called);
  }
  for (const start of calls.keys()) {
    // Depth-first from each function: reaching it again through others is a cycle.
    const seen = new Set<string>();
    const stack = [...(calls.get(start) ?? [])];
    const onPath = new Set<string>([start]);
    while (stack.length > 0) {
      const next = stack.pop() ?? '';
      if (next === start) {
        if ([...onPath].some((f) => spawning.has(f))) return scope.verdict.add('blocked', `fork bomb: functions ${[...onPath].join(', ')} call each other in the background or in pipelines`);
        continue;
      }
      if (seen.has(next) || !calls.has(next)) continue;
      seen.add(next);
      onPath.add(next);
      stack.push(...(calls.get(next) ?? []));
    }
  }
}

function callArgs(cmd: ShNode | null): Arg[] | null {
  if (!cmd || nodeType(cmd) !== 'CallExpr') return null;
  return children(cmd, 'Args').map(wordToArg);
}

function classifyStatement(stmt: ShNode, scope: Scope): void {
  const cmd = child(stmt, 'Cmd');
  if (cmd && nodeType(cmd) === 'CallExpr') {
    for (const assign of children(cmd, 'Assigns')) checkAssignment(text(child(assign, 'Name'), 'Value'), scope);
  }
  const argv = callArgs(cmd);
  if (argv) {
    classifyArgv(argv, scope);
    // A program run by absolute path (/usr/bin/x, a toolchain under the home folder) is read, not touched.
    argv.forEach((word, i) => {
      if (i > 0 || !word.text.startsWith('/')) checkOutsidePath(word, scope);
    });
  }
  for (const redirect of children(stmt, 'Redirs')) classifyRedirect(redirect, argv, scope);
}

function classifyArgv(argv: Arg[], scope: Scope): void {
  const notes: string[] = [];
  const core = unwrap(argv, 0, notes);
  for (const note of notes) scope.verdict.add('destructive', note);
  if (core.kind === 'source') return classifySource(core.source, deeper(scope));
  if (core.kind === 'none') return;
  judgeCommand(core.argv, scope);
  checkRunsWritten(core.argv, scope);
}

/** Files a program reads its code from without naming them (make, npm run). */
const IMPLICIT_CODE: Record<string, readonly string[]> = {
  make: ['Makefile', 'makefile', 'GNUmakefile'],
  npm: ['package.json'],
  yarn: ['package.json'],
  pnpm: ['package.json'],
  bun: ['package.json'],
};

/**
 * Write-then-run: `base64 -d > x.sh; sh x.sh`, a heredoc into a file then `bash` on it. What runs was
 * produced by the same line, so nothing the person can read shows what it does.
 */
function checkRunsWritten(argv: Arg[], scope: Scope): void {
  if (scope.written.size === 0) return;
  const name = commandName(argv).toLowerCase();
  const runs: Arg[] = [];
  const program = argv[0];
  if (program?.text.includes('/')) runs.push(program);
  if (runsScriptFile(name)) {
    const script = scanArgs(argv.slice(1), { short: 'oOWXIr', long: ['--rcfile', '--init-file', '--require', '--import'] }).operands[0];
    if (script) runs.push(script);
  }
  if ((name === 'source' || name === '.') && argv[1]) runs.push(argv[1]);
  for (const file of IMPLICIT_CODE[name] ?? []) runs.push({ text: file, dynamic: false, procSubst: false, glob: false, braces: false });
  for (const run of runs) {
    const abs = resolveWritten(run, scope);
    if (abs !== null && scope.written.has(abs)) {
      scope.verdict.add('destructive', `runs ${path.basename(abs)}, which this same command writes first`);
    }
  }
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

/** Whether a background job or a pipeline starts somewhere under `node`: processes multiply. */
function spawnsUnder(node: ShNode): boolean {
  let spawns = false;
  walk(node, (inner, type) => {
    if (type === 'Stmt' && inner.Background === true) spawns = true;
  });
  return spawns;
}

/** A function that calls itself in a pipeline or in the background multiplies until the machine stalls. */
function classifyFunction(decl: ShNode, scope: Scope): void {
  const name = text(child(decl, 'Name'), 'Value');
  const body = child(decl, 'Body');
  if (!name || !body) return;
  let callsItself = false;
  let pipes = false;
  walk(body, (node, type) => {
    if (type === 'CallExpr' && callArgs(node)?.[0]?.text === name) callsItself = true;
    else if (type === 'BinaryCmd' && ['|', '|&'].includes(binaryOp(node))) pipes = true;
  });
  if (callsItself && (pipes || spawnsUnder(body))) scope.verdict.add('blocked', `fork bomb: function ${name} calls itself in a pipeline or in the background`);
}

/**
 * A loop that starts background jobs: a `while`/`until` one may never stop spawning (blocked); a
 * `for` one starts as many processes as it has items (destructive: the person judges how many).
 */
function classifyLoop(loop: ShNode, type: string, scope: Scope): void {
  const body = children(loop, 'Do');
  if (!body.some(spawnsUnder)) return;
  if (type === 'WhileClause') scope.verdict.add('blocked', 'a while/until loop starts background jobs, which can multiply until the machine stalls');
  else scope.verdict.add('destructive', 'a for loop starts a background job per item');
}
