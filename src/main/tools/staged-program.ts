// How run_script and run_python run the model's program, once for both: the code staged as a file
// in the task's work/.scripts through the task-path resolver (a command may have made `.scripts` a
// link to another task or out of the data folder), the network only when the task allows it (the
// code is not classified), the allowlisted environment, one executor call with the task's limits,
// the files it wrote reported, the staged file removed, and the report the model reads.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PathEscapeError } from '../../shared/errors';
import { programEnv } from '../sandbox/env';
import type { Executor } from '../sandbox/executor';
import { removeInside, resolveInside, writeInside } from '../workspace/task-paths';
import { programReport, runProgram } from './program-run';
import type { RunResult } from './shell/run';
import { type ToolContext, ToolError, type ToolResult } from './types';

export const SCRIPT_DEFAULT_TIMEOUT_S = 60;
export const SCRIPT_MAX_TIMEOUT_S = 600;
/** Where programs are staged, relative to the task folder (a dot folder: not an output of the task). */
export const SCRIPTS_DIR = path.join('work', '.scripts');

/** What both tools are given by the catalog for every program they run. */
export interface ProgramSetup {
  /** Names of stored keys that must never reach the program's environment. */
  secretNames?: () => readonly string[];
  /** The environment the program's allowlisted one is made from (default: this process's). */
  baseEnv?: () => NodeJS.ProcessEnv;
  /** Folders the program must not see (Folio's data folder), where the sandbox works. */
  hiddenPaths?: readonly string[];
}

/** One program of the model's, as a tool hands it over. */
export interface StagedProgram {
  code: string;
  /** The staged file's extension: `.mjs`, `.py`. */
  extension: string;
  /** Files the program reads beside it in SCRIPTS_DIR (a matplotlibrc), written before each run. */
  support?: Readonly<Record<string, string>>;
  /** The command line, given the staged file's absolute path. */
  argv: (file: string) => string[];
  /** Variables added to the allowlisted environment, given the staging folder's absolute path. */
  extraEnv?: (dir: string) => Record<string, string>;
  readOnlyPaths: string[];
  timeoutS: number;
  /** The executor's name for it (`node`, `python3`). */
  label: string;
  /** The report's and the errors' name for it (`script`, `program`). */
  noun: string;
}

export async function runStagedProgram(runner: Executor, ctx: ToolContext, setup: ProgramSetup, program: StagedProgram): Promise<ToolResult & { touched: string[] }> {
  const rel = `${SCRIPTS_DIR}/script-${Date.now()}-${randomBytes(4).toString('hex')}${program.extension}`;
  let file: string;
  try {
    await writeInside(ctx.root, rel, program.code, { exclusive: true });
    for (const [name, text] of Object.entries(program.support ?? {})) await writeInside(ctx.root, `${SCRIPTS_DIR}/${name}`, text);
    file = resolveInside(ctx.root, rel);
  } catch (err) {
    // A support file refused (a planted link) leaves no staged program behind.
    await removeInside(ctx.root, rel);
    if (err instanceof PathEscapeError) throw err;
    throw new ToolError(`Could not write the ${program.noun} to ${SCRIPTS_DIR}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const network = (await ctx.network?.allowed()) === true;
  const sandbox = runner.status().active;
  const env = {
    ...programEnv(setup.baseEnv?.() ?? process.env, { sandboxed: sandbox, network, secretNames: setup.secretNames?.() ?? [] }),
    ...program.extraEnv?.(path.dirname(file)),
  };
  const before = snapshotFiles(ctx.root);
  let result: RunResult;
  try {
    result = await runProgram(runner, ctx, {
      argv: program.argv(file),
      env,
      network,
      timeoutS: program.timeoutS,
      hiddenPaths: setup.hiddenPaths ?? [],
      readOnlyPaths: program.readOnlyPaths,
      label: program.label,
    });
  } finally {
    await removeInside(ctx.root, rel);
  }
  const touched = changedFiles(before, snapshotFiles(ctx.root));
  const wrote = touched.length > 0 ? `Files written: ${touched.join(', ')}\n` : '';
  const report = programReport(result, { isolated: sandbox, network, timeoutS: program.timeoutS, what: `the ${program.noun}`, extra: wrote });
  const isError = result.timedOut || result.aborted || result.exitCode !== 0;
  return { content: report.content, isError, program: report.program, ...(isError && report.failure ? { failure: report.failure } : {}), touched };
}

export type Snapshot = Map<string, string>;
const SNAPSHOT_LIMIT = 20_000;

/** mtime and size of the task's files (dot folders and node_modules skipped), to report what a program wrote. */
export function snapshotFiles(root: string): Snapshot {
  const out: Snapshot = new Map();
  const pending = [''];
  while (pending.length > 0 && out.size < SNAPSHOT_LIMIT) {
    const rel = pending.pop() ?? '';
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) pending.push(childRel);
      else if (entry.isFile()) {
        try {
          const st = fs.statSync(path.join(root, childRel));
          out.set(childRel, `${st.mtimeMs}:${st.size}`);
        } catch {
          // Removed while we looked: not ours to report.
        }
      }
    }
  }
  return out;
}

export function changedFiles(before: Snapshot, after: Snapshot): string[] {
  return [...after].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file).sort();
}
