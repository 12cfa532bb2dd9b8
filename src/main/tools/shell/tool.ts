// shell: run a command in the task folder after classification. Blocked commands never run (the
// loop is told by `assess`, and `execute` refuses again in case it is called directly).
import { z } from 'zod';
import { NO_PATHS, type Tool, type ToolRisk, ToolError } from '../types';
import { classifyCommand } from './classify';
import { normalizeCommand } from './normalize';
import { sandboxNote } from './sandbox';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, type RunResult, runShell, stripSecrets } from './run';

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
}

/** Keeps tools that would wait for a person (pagers, credential prompts) from hanging the run. */
const NON_INTERACTIVE = { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', NO_COLOR: '1' };

function assessCommand(command: string, root: string, protectedPaths: readonly string[]): ToolRisk {
  const verdict = classifyCommand(command, { cwd: root, protectedPaths });
  if (verdict.class === 'blocked') return { risk: 'destructive', detail: command, blocked: verdict.reasons.join('; ') };
  return { risk: verdict.class, detail: command };
}

function describeEnd(result: RunResult, timeoutS: number): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  if (result.timedOut) return `[timed out after ${timeoutS} s; the command and everything it started were killed]`;
  if (result.aborted) return `[cancelled after ${seconds} s; the command and everything it started were killed]`;
  if (result.signal) return `[killed by ${result.signal} after ${seconds} s]`;
  return `[exit code ${result.exitCode ?? 'unknown'} · ${seconds} s]`;
}

export function createShellTool(options: ShellToolOptions = {}): Tool<typeof parameters> {
  const hiddenPaths = options.hiddenPaths ?? [];
  return {
    name: 'shell',
    description:
      'Run a shell command (/bin/sh) in the task folder and return its combined output (capped at 100 KB) and exit code. ' +
      'Not interactive: stdin is empty. Background processes are stopped when the command ends. ' +
      'Commands like `sh -c`, `eval`, `sudo` or piping into a shell are refused; run the command directly. ' +
      sandboxNote(),
    parameters,
    // Commands name paths of their own; the classifier, not the path resolver, judges them.
    traits: { kind: 'execute', runsCode: true, network: true, paths: NO_PATHS, writesArtifacts: false },
    grantScope(args) {
      return normalizeCommand(args.command);
    },
    assess(args, ctx) {
      return assessCommand(args.command, ctx.root, hiddenPaths);
    },
    async execute(args, ctx) {
      const risk = assessCommand(args.command, ctx.root, hiddenPaths);
      if (risk.blocked !== undefined) throw new ToolError(`Command refused: ${risk.blocked}.`);
      const timeoutS = args.timeout_s ?? DEFAULT_TIMEOUT_MS / 1000;
      const env = { ...stripSecrets(options.baseEnv?.() ?? process.env, options.secretNames?.() ?? []), ...NON_INTERACTIVE };
      const result = await runShell({
        command: args.command,
        cwd: ctx.root,
        env,
        timeoutMs: timeoutS * 1000,
        signal: ctx.signal,
        writableRoot: ctx.root,
        hiddenPaths,
      });
      const body = result.output.length > 0 ? result.output.replace(/\n?$/u, '\n') : '(no output)\n';
      return {
        content: `${body}${describeEnd(result, timeoutS)}`,
        isError: result.timedOut || result.aborted,
      };
    },
  };
}
