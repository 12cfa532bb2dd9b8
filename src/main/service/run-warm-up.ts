// What a worker of the team service loads and probes before it takes any run. Each is done once
// per process and holds the event loop while it runs: module evaluation, and the sandbox and
// Python probes, which are synchronous child processes (about a second on a loaded machine). Left
// to a run, that pause delays the renewal of every lease the worker holds, and a peer's sweeper
// takes a lease whose worker is alive: a run that was going well ends `interrupted`.
import { loadOpenAISdk } from '../llm/openai-client';
import { defaultExecutor } from '../sandbox/select-executor';

export async function loadRunCode(): Promise<void> {
  const [{ toolCatalog }] = await Promise.all([import('../tools/catalog'), loadOpenAISdk()]);
  defaultExecutor().status();
  // Builds every built-in tool once, as a run's registry does: run_python's probe among them.
  toolCatalog();
}
