// What a command line needs and how a grant may name it, read from the same parse as the
// classification: the network (for the sandbox's per-task switch), and "program + subcommand"
// (`npm test`, `git commit`) for grants that cover a kind of command rather than the whole tool.
import { classifyCommand } from './classify';
import { firstOperand } from './paths';
import { networkNeed } from './rules';
import { runsScriptFile } from './rules-code';
import { gitSubcommand } from './rules-tools';
import { type ShNode, child, children, nodeType, parseShell, walk, wordToArg } from './syntax';
import { commandName, unwrap } from './wrappers';

/**
 * The first program in the line that needs the network (`curl`, `git clone`, `npm install`), or
 * null. A line that cannot be parsed needs nothing here: it is rated destructive anyway.
 */
export function commandNeedsNetwork(command: string): string | null {
  let file: ShNode;
  try {
    file = parseShell(command);
  } catch {
    return null;
  }
  let need: string | null = null;
  walk(file, (node, type) => {
    if (need !== null || type !== 'CallExpr') return;
    const core = unwrap(children(node, 'Args').map(wordToArg));
    if (core.kind === 'argv') need = networkNeed(core.argv);
    else if (core.kind === 'source') need = commandNeedsNetwork(core.source);
  });
  return need;
}

/** Programs whose first operand is a subcommand worth keeping in the key (`git commit` is not `git push`). */
const WITH_SUBCOMMAND = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'cargo', 'go', 'make', 'docker', 'podman', 'pip', 'pip3', 'uv', 'poetry', 'deno',
  'dotnet', 'mvn', 'gradle', 'kubectl', 'gh', 'rustup', 'conda', 'brew', 'apt', 'apt-get', 'composer', 'bundle', 'gem', 'swift',
]);
/** Programs that run whatever code they are pointed at: a grant on them would cover anything. */
const RUNS_ANYTHING = new Set(['npx', 'bunx', 'pnpx', 'uvx', 'pipx', 'env', 'xargs', 'exec', 'command', 'builtin', 'find', 'watch', 'timeout', 'nice', 'nohup', 'time', 'setsid', 'flock', 'stdbuf', 'ionice', 'chrt', 'taskset', 'unshare', 'chroot', 'busybox', 'unbuffer']);
const PLAIN_WORD = /^[A-Za-z0-9][A-Za-z0-9._:+-]*$/u;

/**
 * "Program + subcommand" for a grant (`npm test`, `git commit`, `ls`), or null when the line must
 * not be generalised: more than one command, a pipeline, a background job, variable assignments,
 * redirections, a wrapper or interpreter, a program given by path, anything computed at run time,
 * or a command the classifier does not rate standard.
 */
export function commandGrantKey(command: string): string | null {
  let file: ShNode;
  try {
    file = parseShell(command);
  } catch {
    return null;
  }
  const stmts = children(file, 'Stmts');
  const stmt = stmts[0];
  if (stmts.length !== 1 || !stmt || stmt.Background === true || stmt.Negated === true || children(stmt, 'Redirs').length > 0) return null;
  const call = child(stmt, 'Cmd');
  if (!call || nodeType(call) !== 'CallExpr' || children(call, 'Assigns').length > 0) return null;
  const argv = children(call, 'Args').map(wordToArg);
  const program = argv[0];
  if (!program || program.dynamic || program.glob || program.braces || !PLAIN_WORD.test(program.text)) return null;
  const name = commandName(argv).toLowerCase();
  const core = unwrap(argv);
  if (core.kind !== 'argv' || core.argv[0] !== program || RUNS_ANYTHING.has(name) || runsScriptFile(name)) return null;
  if (classifyCommand(command).class !== 'standard') return null;
  if (!WITH_SUBCOMMAND.has(name)) return name;
  const args = argv.slice(1);
  const index = name === 'git' ? gitSubcommand(args) : { index: firstOperand(args), globals: args.slice(0, firstOperand(args)) };
  if (index.globals.length > 0) return null; // `git -C elsewhere`, `npm --prefix x`: options that change what runs
  const sub = args[index.index];
  if (!sub) return name;
  if (sub.dynamic || sub.glob || !PLAIN_WORD.test(sub.text)) return null;
  return `${name} ${sub.text}`;
}
