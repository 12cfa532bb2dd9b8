// How the shell, run_script and run_python (the last two through staged-program.ts) run a program
// for the model: one executor call with the task's limits, its refusals turned into the model's
// ToolError, and the output written as the model reads it (a note when it failed for want of the
// network, how it ended). `what` names the program in that ending: "the command", "the script".
import { ExecutorError, type Executor } from '../sandbox/executor';
import { looksLikeNetworkFailure, NETWORK_OFF_NOTE, networkPolicy } from '../sandbox/network';
import type { ProgramFacts, ToolFailure } from '../../shared/contract/tool-calls';
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

/**
 * The model's reading of a run (its output, `extra` lines, the network note when it applies, how it
 * ended) and the same facts as data for the person's screen: where the program's own output ends,
 * where the note about a left-out middle sits, and why the run failed when it did.
 */
export function programReport(
  result: RunResult,
  run: { isolated: boolean; network: boolean; timeoutS: number; what: string; extra?: string },
): { content: string; program: ProgramFacts; failure: ToolFailure | undefined } {
  const body = result.output.length > 0 ? result.output.replace(/\n?$/u, '\n') : '(no output)\n';
  const networkOff = run.isolated && !run.network && looksLikeNetworkFailure(result.output);
  const offline = networkOff ? `${NETWORK_OFF_NOTE}\n` : '';
  const limits = (result.limitNotes ?? []).map((line) => `${line}\n`).join('');
  const program: ProgramFacts = {
    output_chars: result.output.length,
    ...(result.omitted ? { omitted: result.omitted } : {}),
    ...(networkOff ? { network_off: true } : {}),
  };
  return { content: `${body}${run.extra ?? ''}${offline}${limits}${describeEnd(result, run.timeoutS, run.what)}`, program, failure: runFailure(result, run.timeoutS) };
}

/** Why a run failed, as a person's screen names it; undefined when the program ended on its own with 0. */
function runFailure(result: RunResult, timeoutS: number): ToolFailure | undefined {
  if (result.timedOut) return { kind: 'timed_out', seconds: timeoutS };
  if (result.aborted) return { kind: 'cancelled' };
  if (result.signal || result.limitNotes !== undefined) return { kind: 'killed' };
  if (result.exitCode !== null && result.exitCode !== 0) return { kind: 'exit_code', code: result.exitCode };
  return result.exitCode === null ? { kind: 'killed' } : undefined;
}

function describeEnd(result: RunResult, timeoutS: number, what: string): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  if (result.timedOut) return `[timed out after ${timeoutS} s; ${what} and everything it started were killed]`;
  if (result.aborted) return `[cancelled after ${seconds} s; ${what} and everything it started were killed]`;
  if (result.signal) return `[killed by ${result.signal} after ${seconds} s]`;
  return `[exit code ${result.exitCode ?? 'unknown'} · ${seconds} s]`;
}
