// run_python: zcbot's code-execution tool (seed 002 §3.4) beside run_script. The model's code is
// written to a temporary .py in the task folder and run by the system's Python 3 through the same
// executor as shell commands (bubblewrap here: the task folder writable, the data folder hidden, no
// network unless the task allows it; a container per task in the team service), with the allowlisted
// environment (no credentials under any name) and the shell runner's process-group kill and limits.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { type Executor } from '../sandbox/executor';
import { defaultExecutor } from '../sandbox/select-executor';
import { describePackages, pythonFor, type PythonRuntime } from './python-runtime';
import { runStagedProgram, SCRIPT_DEFAULT_TIMEOUT_S, SCRIPT_MAX_TIMEOUT_S, type ProgramSetup } from './staged-program';
import { NO_PATHS, sourceFolder, type Tool, ToolError } from './types';

const parameters = z.object({
  code: z.string().min(1).max(200_000).describe('A complete Python 3 program.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(SCRIPT_MAX_TIMEOUT_S)
    .optional()
    .describe(`Seconds before the program and everything it started are killed (default ${SCRIPT_DEFAULT_TIMEOUT_S}, at most ${SCRIPT_MAX_TIMEOUT_S}).`),
});

/**
 * Fonts for figures: matplotlib's default has no Chinese, so CJK faces follow it as fallbacks (per
 * glyph, matplotlib 3.6+). Named per platform so a run does not warn about fonts that cannot be there.
 */
function figureFonts(platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') return ['DejaVu Sans', 'PingFang SC', 'Hiragino Sans GB', 'Arial Unicode MS'];
  if (platform === 'win32') return ['DejaVu Sans', 'Microsoft YaHei', 'SimHei'];
  return ['DejaVu Sans', 'Noto Sans CJK JP', 'Noto Sans CJK SC'];
}

/** Figures are files (no display), CJK labels render, and a minus sign survives any font. */
export function matplotlibRc(platform: NodeJS.Platform = process.platform): string {
  return ['backend: Agg', `font.family: ${figureFonts(platform).join(', ')}`, 'axes.unicode_minus: False', 'savefig.bbox: tight', ''].join('\n');
}

export interface RunPythonToolOptions extends ProgramSetup {
  /** What runs the program (default: the one FOLIO_EXECUTOR chooses). */
  executor?: Executor;
  /** The interpreter on this machine (default: probed once, see python-runtime.ts). */
  python?: () => PythonRuntime;
}

export function createRunPythonTool(options: RunPythonToolOptions = {}): Tool<typeof parameters> {
  const executor = (): Executor => options.executor ?? defaultExecutor();
  const python = () => pythonFor(executor(), options.python);
  return {
    name: 'run_python',
    // A getter: the probe (and the sandbox's) run once, at the first run that lists the tools.
    get description() {
      const found = python();
      const packages = !found.available
        ? ''
        : found.packages === null
          ? "The packages are the container image's: check an import before relying on it. "
          : found.packages.length > 0
            ? `Python ${found.version} with: ${describePackages(found.packages)}; nothing else can be installed. `
            : `Python ${found.version} with the standard library only (no numpy, pandas or matplotlib); nothing else can be installed. `;
      return (
        'Run a Python 3 program in the task folder (the working directory; use relative paths such as "source/…", "work/…"). ' +
        'Use it to compute statistics, clean or reshape tables (CSV, .xlsx), and draw figures. ' +
        packages +
        "Print results with print(); stdout and stderr come back (capped at 100 KB) with the exit code. No stdin, no display: save figures with " +
        "plt.savefig('work/<name>.png', dpi=200) (Chinese labels render); a PNG under work/ can be used directly as a slide image in render_deck " +
        'and as a figure in a proposal. Write outputs under work/ (source/ is read-only). ' +
        `Killed with everything it started after timeout seconds (default ${SCRIPT_DEFAULT_TIMEOUT_S}). Only a minimal environment (PATH, HOME, LANG ...): no credentials. ` +
        executor().note()
      );
    },
    parameters,
    traits: { kind: 'execute', runsCode: true, network: true, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
    // Granted by its exact text, like run_script: a changed program asks again.
    grantScope(args) {
      return `sha256:${createHash('sha256').update(args.code).digest('hex')}`;
    },
    assess(args) {
      return { risk: 'standard', detail: args.code };
    },
    async execute(args, ctx) {
      const runner = executor();
      const found = python();
      if (!found.available) throw new ToolError(`run_python needs Python 3, and none was found (${found.reason}). Use run_script (JavaScript) instead.`);
      // -I: isolated (no PYTHON* variable, no user site folder changes what runs); -u: output
      // arrives as printed, even from a program killed at its time limit; -B: no .pyc files;
      // -X utf8: Chinese text in and out whatever the locale.
      return runStagedProgram(runner, ctx, options, {
        code: args.code,
        extension: '.py',
        support: { matplotlibrc: matplotlibRc() },
        argv: (file) => [found.executable, '-I', '-u', '-B', '-X', 'utf8', file],
        extraEnv: (dir) => ({
          MPLBACKEND: 'Agg',
          MATPLOTLIBRC: path.join(dir, 'matplotlibrc'),
          // matplotlib's font cache, built once per task (the sandbox's home and /tmp do not last).
          MPLCONFIGDIR: path.join(dir, '.matplotlib'),
        }),
        readOnlyPaths: [sourceFolder(ctx)],
        timeoutS: args.timeout ?? SCRIPT_DEFAULT_TIMEOUT_S,
        label: 'python3',
        noun: 'program',
      });
    },
  };
}
