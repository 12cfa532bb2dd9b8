// The sandbox and Python probes that the capabilities answer (and a run's first tools) need, run in
// the background when the app or `folio serve` starts, as child processes: the synchronous ones a
// first `getCapabilities` would run hold the event loop (about a second on a loaded machine), and
// the empty task's network switch waits for that answer. Start-up waits for none of it.
import { defaultExecutor } from '../sandbox/select-executor';
import { warmSandboxStatus } from '../sandbox/sandbox';
import { warmPythonRuntime } from '../tools/python-runtime';

let running: Promise<void> | null = null;

/** Starts the probes once per process; resolves when they are done (never rejects). */
export function warmMachineProbes(): Promise<void> {
  running ??= (async () => {
    const executor = defaultExecutor();
    // A container's Python is the image's and its status the engine's: nothing here to warm for them.
    if (executor.kind !== 'bubblewrap') return;
    await Promise.all([warmSandboxStatus(), executor.hostFilesystem ? warmPythonRuntime() : null]);
  })().catch(() => undefined);
  return running;
}

/** Resolves when the probes started by `warmMachineProbes` are done; at once if none were started. */
export function machineProbesSettled(): Promise<void> {
  return running ?? Promise.resolve();
}
