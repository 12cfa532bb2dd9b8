// Which Python 3 runs run_python, and which scientific packages it has: probed once per process
// (cached), so the tool's description tells the model what it may import instead of letting it guess.
// Candidates: FOLIO_PYTHON when set (only it); else `python3` on the PATH, then the system's
// /usr/bin/python3. The one with the most of numpy, pandas and matplotlib wins (the PATH's on a
// tie): a version manager's shim on the PATH without packages must not hide the system's analysis
// stack. The interpreter is recorded by its real path (`sys.executable`), because a shim (pyenv)
// needs the person's home, which the sandbox hides.
import { spawnSync } from 'node:child_process';
import { stripSecrets } from '../sandbox/env';
import type { Executor } from '../sandbox/executor';
import { type ProbeRun, runProbe } from '../sandbox/run-probe';

export interface PythonPackage {
  /** The import name (`PIL`, `sklearn`). */
  module: string;
  version: string | null;
}

export type PythonRuntime =
  | { available: true; executable: string; version: string; packages: PythonPackage[] }
  | { available: false; reason: string };

/** The analysis stack a figure or a statistic needs; the pick prefers the interpreter with most of them. */
export const CORE_PACKAGES = ['numpy', 'pandas', 'matplotlib'] as const;

/** Import name → distribution name, for the version. Listed in the description when importable. */
const PROBED: Record<string, string> = {
  numpy: 'numpy',
  pandas: 'pandas',
  matplotlib: 'matplotlib',
  scipy: 'scipy',
  statsmodels: 'statsmodels',
  sklearn: 'scikit-learn',
  seaborn: 'seaborn',
  openpyxl: 'openpyxl',
  xlrd: 'xlrd',
  PIL: 'Pillow',
  docx: 'python-docx',
  pptx: 'python-pptx',
  requests: 'requests',
};

// find_spec and metadata only: importing pandas or matplotlib to ask would take seconds.
const PROBE = `
import json, sys
from importlib import metadata, util
found = []
for module, dist in ${JSON.stringify(PROBED)}.items():
    try:
        if util.find_spec(module) is None:
            continue
    except Exception:
        continue
    try:
        version = metadata.version(dist)
    except Exception:
        version = None
    found.append([module, version])
print(json.dumps({"executable": sys.executable, "version": sys.version.split()[0], "major": sys.version_info[0], "packages": found}))
`;

const PROBE_TIMEOUT_MS = 20_000;

export function pythonCandidates(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string[] {
  if (env.FOLIO_PYTHON) return [env.FOLIO_PYTHON];
  return platform === 'win32' ? ['python', 'python3'] : ['python3', '/usr/bin/python3'];
}

function probeAnswer(command: string, run: Pick<ProbeRun, 'error' | 'status' | 'signal' | 'stdout' | 'stderr'>): PythonRuntime {
  if (run.error) return { available: false, reason: `${command}: ${(run.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : run.error.message}` };
  if (run.status !== 0) return { available: false, reason: `${command} exited with ${run.status ?? run.signal}: ${run.stderr.trim().split('\n').at(-1) ?? ''}` };
  try {
    const out = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as { executable: string; version: string; major: number; packages: [string, string | null][] };
    if (out.major !== 3) return { available: false, reason: `${command} is Python ${out.version}, not Python 3` };
    return { available: true, executable: out.executable || command, version: out.version, packages: out.packages.map(([module, version]) => ({ module, version })) };
  } catch {
    return { available: false, reason: `${command} did not answer the probe` };
  }
}

function probeOne(command: string, env: NodeJS.ProcessEnv): PythonRuntime {
  const run = spawnSync(command, ['-I', '-c', PROBE], { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, env: stripSecrets(env), windowsHide: true });
  return probeAnswer(command, { ...(run.error ? { error: run.error } : {}), status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr });
}

async function probeOneInBackground(command: string, env: NodeJS.ProcessEnv): Promise<PythonRuntime> {
  return probeAnswer(command, await runProbe(command, ['-I', '-c', PROBE], { timeoutMs: PROBE_TIMEOUT_MS, env: stripSecrets(env) }));
}

function coreCount(runtime: PythonRuntime): number {
  return runtime.available ? runtime.packages.filter((p) => (CORE_PACKAGES as readonly string[]).includes(p.module)).length : -1;
}

/** The pick among the candidates' answers, in order (see the top of this file). */
function pythonPick(): { add(found: PythonRuntime): boolean; result(): PythonRuntime } {
  let best: PythonRuntime | null = null;
  const reasons: string[] = [];
  return {
    /** True once no later candidate can do better. */
    add(found) {
      if (!found.available) reasons.push(found.reason);
      else if (best === null || coreCount(found) > coreCount(best)) best = found;
      return best !== null && coreCount(best) === CORE_PACKAGES.length;
    },
    result: () => best ?? { available: false, reason: `no Python 3 found (${reasons.join('; ')})` },
  };
}

/** Probes the candidates and picks one (see the top of this file). Uncached: use `pythonRuntime`. */
export function probePython(candidates: readonly string[], env: NodeJS.ProcessEnv = process.env): PythonRuntime {
  const pick = pythonPick();
  for (const command of candidates) if (pick.add(probeOne(command, env))) break;
  return pick.result();
}

const cache = new Map<string, PythonRuntime>();
const warming = new Map<string, Promise<PythonRuntime>>();

/** The Python run_python uses on this machine: probed at the first question, then remembered. */
export function pythonRuntime(candidates: readonly string[] = pythonCandidates()): PythonRuntime {
  const key = candidates.join('\0');
  let runtime = cache.get(key);
  if (!runtime) {
    runtime = probePython(candidates);
    cache.set(key, runtime);
  }
  return runtime;
}

/**
 * Probes as `pythonRuntime` would, but with child processes in the background instead of
 * synchronous ones that hold the event loop; `pythonRuntime` then answers from what it found.
 */
export function warmPythonRuntime(candidates: readonly string[] = pythonCandidates()): Promise<PythonRuntime> {
  const key = candidates.join('\0');
  const known = cache.get(key);
  if (known) return Promise.resolve(known);
  let running = warming.get(key);
  if (!running) {
    running = (async () => {
      const pick = pythonPick();
      for (const command of candidates) if (pick.add(await probeOneInBackground(command, process.env))) break;
      const runtime = cache.get(key) ?? pick.result();
      cache.set(key, runtime);
      warming.delete(key);
      return runtime;
    })();
    warming.set(key, running);
  }
  return running;
}

/** `numpy 1.24.2, pandas 1.5.3, …` for the tool description. */
export function describePackages(packages: readonly PythonPackage[]): string {
  return packages.map((p) => (p.version ? `${p.module} ${p.version}` : p.module)).join(', ');
}

/**
 * The interpreter the tool will use with this executor: on this machine, the probed one; in a
 * container, the image's `python3` (its packages are the image's, not probed from here).
 */
export function pythonFor(executor: Executor, probe: () => PythonRuntime = () => pythonRuntime()): PythonRuntime | { available: true; executable: 'python3'; version: null; packages: null } {
  return executor.hostFilesystem ? probe() : { available: true, executable: 'python3', version: null, packages: null };
}
