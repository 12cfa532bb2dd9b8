// How the shell, run_script and run_python (the last two through staged-program.ts) run a program
// for the model: one executor call with the task's limits, its refusals turned into the model's
// ToolError, and the output written as the model reads it (a note when it failed for want of the
// network, how it ended). `what` names the program in that ending: "the command", "the script".
import { ExecutorError, type Executor } from '../sandbox/executor';
import { looksLikeNetworkFailure, NETWORK_OFF_NOTE, networkPolicy } from '../sandbox/network';
import type { RunResult } from './shell/run';
import { type ToolContext, ToolError } from './types';

export interface ProgramRun {
  argv: string[];
  env: Record<string, string>;
  /** Whether the program may use the network (the task's switch, or an approved command that needs it). */
  network: boolean;
  timeoutS: number;
  hiddenPaths: readonly string[];
  readOnlyPaths: string[];
  /** For the executor's messages: `the shell`, `node`. */
  label: string;
}

export async function runProgram(runner: Executor, ctx: ToolContext, run: ProgramRun): Promise<RunResult> {
  try {
    return await runner.run(run.argv, {
      taskId: ctx.taskId,
      root: ctx.root,
      cwd: ctx.root,
      env: run.env,
      timeoutMs: run.timeoutS * 1000,
      signal: ctx.signal,
      hiddenPaths: run.hiddenPaths,
      network: networkPolicy(run.network),
      readOnlyPaths: run.readOnlyPaths,
      label: run.label,
    });
  } catch (err) {
    throw err instanceof ExecutorError ? new ToolError(err.message) : err;
  }
}

/** The model's reading of a run: its output, `extra` lines, the network note when it applies, how it ended. */
export function programReport(result: RunResult, run: { isolated: boolean; network: boolean; timeoutS: number; what: string; extra?: string }): string {
  const body = result.output.length > 0 ? result.output.replace(/\n?$/u, '\n') : '(no output)\n';
  const offline = run.isolated && !run.network && looksLikeNetworkFailure(result.output) ? `${NETWORK_OFF_NOTE}\n` : '';
  const limits = (result.limitNotes ?? []).map((line) => `${line}\n`).join('');
  return `${body}${run.extra ?? ''}${offline}${limits}${describeEnd(result, run.timeoutS, run.what)}`;
}

function describeEnd(result: RunResult, timeoutS: number, what: string): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  if (result.timedOut) return `[timed out after ${timeoutS} s; ${what} and everything it started were killed]`;
  if (result.aborted) return `[cancelled after ${seconds} s; ${what} and everything it started were killed]`;
  if (result.signal) return `[killed by ${result.signal} after ${seconds} s]`;
  return `[exit code ${result.exitCode ?? 'unknown'} · ${seconds} s]`;
}
