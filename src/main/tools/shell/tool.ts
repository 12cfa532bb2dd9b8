// shell: run a command in the task folder after classification. Blocked commands never run (the
// loop is told by `assess`, and `execute` refuses again in case it is called directly).
import { LIBRARY_READ_ONLY_MESSAGE } from '../../workspace/library-paths';
import { z } from 'zod';
import { programEnv } from '../../sandbox/env';
import { type Executor } from '../../sandbox/executor';
import { defaultExecutor } from '../../sandbox/select-executor';
import { programReport, runProgram } from '../program-run';
import { NO_PATHS, sourceFolder, type Tool, type ToolContext, type ToolRisk, ToolError } from '../types';
import { classifyCommand } from './classify';
import { commandNeedsNetwork } from './traits';
import { contentFingerprint, filesRunByCommand } from '../ran-files';
import { normalizeCommand } from './normalize';
import { reasonCodes } from './reason-codes';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, shellArgv } from './run';

const parameters = z.object({
  command: z.string().min(1).describe('The command line, run with /bin/sh in the task folder.'),
  timeout_s: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_MS / 1000)
    .optional()
    .describe(`Seconds before the command is killed (default ${DEFAULT_TIMEOUT_MS / 1000}, at most ${MAX_TIMEOUT_MS / 1000}).`),
});

export interface ShellToolOptions {
  /** Names of stored keys (from the key file) that must never reach a command's environment. */
  secretNames?: () => readonly string[];
  /** The environment commands inherit before secrets are stripped (default: this process's). */
  baseEnv?: () => NodeJS.ProcessEnv;
  /**
   * Folders commands must not see (Folio's data folder: keys.json, other tasks). Enforced where the
   * bubblewrap sandbox works (see `sandboxStatus()`); the task folder stays visible and writable.
   */
  hiddenPaths?: readonly string[];
  /** What runs the commands (default: the one FOLIO_EXECUTOR chooses, see sandbox/select-executor.ts). */
  executor?: Executor;
}

/** Keeps tools that would wait for a person (pagers, credential prompts) from hanging the run. */
const NON_INTERACTIVE = { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', NO_COLOR: '1' };

/**
 * What a command needs that the task has not given it: today only the network, and only where the
 * sandbox can actually keep it off.
 */
/** A `library/project` or `library/personal` path as a word of a command. */
const LIBRARY_IN_COMMAND = /(^|[\s'"=:;(|&<>])(\.\/)?library\/(project|personal)(\/|$|[\s'";|&)<>])/u;

async function missingNetwork(command: string, ctx: Pick<ToolContext, 'network'>, executor: Executor): Promise<string | null> {
  if (!executor.status().active || (await ctx.network?.allowed()) === true) return null;
  return commandNeedsNetwork(command);
}

/**
 * A command that needs the network while the task has it off is rated destructive, which the
 * approval policy always asks about whatever was granted: `execute` is then reached only with the
 * person's yes to this very command, which runs it with the network once. The network stays on for
 * the task only when the person chose that (allow_task on a `network` reason, see the loop).
 */
async function assessCommand(command: string, ctx: Pick<ToolContext, 'root' | 'network' | 'library'>, protectedPaths: readonly string[], executor: Executor): Promise<ToolRisk> {
  // Library files are not in the task folder, and read-only
  if (ctx.library && LIBRARY_IN_COMMAND.test(command)) {
    return { risk: 'destructive', detail: command, blocked: `commands cannot use library/ paths (${LIBRARY_READ_ONLY_MESSAGE} Read library files with read, grep or search_library)` };
  }
  const verdict = classifyCommand(command, { cwd: ctx.root, protectedPaths });
  if (verdict.class === 'blocked') return { risk: 'destructive', detail: command, blocked: verdict.reasons.join('; ') };
  const reasons = reasonCodes(verdict.reasons);
  const ran = filesRunByCommand(ctx.root, command);
  // What "allow for this task" covers: these files as they are now (the card says so).
  if (ran.length > 0) reasons.push({ code: 'runs_file', subject: ran.join(', ') });
  const needs = await missingNetwork(command, ctx, executor);
  if (needs !== null) return { risk: 'destructive', detail: command, reasons: [{ code: 'network', subject: needs }, ...reasons] };
  return reasons.length > 0 ? { risk: verdict.class, detail: command, reasons } : { risk: verdict.class, detail: command };
}

export function createShellTool(options: ShellToolOptions = {}): Tool<typeof parameters> {
  const hiddenPaths = options.hiddenPaths ?? [];
  // Read at each use, not at creation: the catalog is built before anything runs.
  const executor = (): Executor => options.executor ?? defaultExecutor();
  return {
    name: 'shell',
    // A getter: the sandbox note runs bubblewrap once to see whether it works, which start-up (the
    // catalog is built with the service) should not wait for; the first run's model request reads it.
    get description() {
      return (
        'Run a shell command (/bin/sh) in the task folder and return its combined output (capped at 100 KB) and exit code. ' +
        'Not interactive: stdin is empty. Background processes are stopped when the command ends. ' +
        'Commands like `sh -c`, `eval`, `sudo` or piping into a shell are refused; run the command directly. ' +
        'A command that needs the network (curl, git clone, npm install ...) asks the person first when the task has it off. ' +
        executor().note()
      );
    },
    parameters,
    // Commands name paths of their own; the classifier, not the path resolver, judges them.
    traits: { kind: 'execute', runsCode: true, network: true, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
    // The exact command, and the contents of the files it runs: a changed script asks again.
    grantScope(args, ctx) {
      const command = normalizeCommand(args.command);
      const files = ctx ? filesRunByCommand(ctx.root, args.command) : [];
      return ctx === undefined || files.length === 0 ? command : `${command}\n${contentFingerprint(ctx.root, files)}`;
    },
    assess(args, ctx) {
      return assessCommand(args.command, ctx, hiddenPaths, executor());
    },
    async execute(args, ctx) {
      const runner = executor();
      const risk = await assessCommand(args.command, ctx, hiddenPaths, runner);
      if (risk.blocked !== undefined) throw new ToolError(`Command refused: ${risk.blocked}.`);
      // Reaching here with a network need means the person approved this command (see assessCommand).
      const network = (await ctx.network?.allowed()) === true || commandNeedsNetwork(args.command) !== null;
      const timeoutS = args.timeout_s ?? DEFAULT_TIMEOUT_MS / 1000;
      const parent = options.baseEnv?.() ?? process.env;
      const isolated = runner.status().active;
      const env = { ...programEnv(parent, { sandboxed: isolated, network, secretNames: options.secretNames?.() ?? [] }), ...NON_INTERACTIVE };
      const result = await runProgram(runner, ctx, {
        argv: shellArgv(args.command),
        env,
        network,
        timeoutS,
        hiddenPaths,
        readOnlyPaths: [sourceFolder(ctx)],
        label: 'the shell',
      });
      const report = programReport(result, { isolated, network, timeoutS, what: 'the command' });
      // A command that exits non-zero has still answered (grep finding nothing): only a stopped one failed.
      const isError = result.timedOut || result.aborted || result.limitNotes !== undefined;
      return { content: report.content, isError, program: report.program, ...(isError && report.failure ? { failure: report.failure } : {}) };
    },
  };
}
