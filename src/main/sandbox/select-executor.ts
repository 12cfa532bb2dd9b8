// The one place that decides which executor runs the model's programs, from the environment:
//   FOLIO_EXECUTOR=bubblewrap (default) | container
//   FOLIO_EXECUTOR_IMAGE, FOLIO_EXECUTOR_RUNTIME (docker|podman|path), FOLIO_EXECUTOR_CPUS,
//   FOLIO_EXECUTOR_MEMORY, FOLIO_EXECUTOR_PIDS, FOLIO_EXECUTOR_IDLE_MINUTES,
//   FOLIO_EXECUTOR_OCI_RUNTIME (e.g. runc), FOLIO_EXECUTOR_ULIMITS (e.g. nofile=1024:1024,nproc=1024:1024),
//   FOLIO_EXECUTOR_EGRESS_NETWORK + FOLIO_EXECUTOR_EGRESS_PROXY (both or neither)
// A container executor chosen where no runtime works does not fall back to running programs on this
// machine: whoever chose it wanted isolation, so tool calls fail with the reason instead.
import { BubblewrapExecutor } from './bubblewrap-executor';
import { ContainerExecutor, type ContainerExecutorOptions } from './container-executor';
import { ExecutorError, type Executor, type ExecResult } from './executor';

type Env = NodeJS.ProcessEnv | Record<string, string | undefined>;

function positive(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new RangeError(`${name} must be a positive number, not "${value}"`);
  return n;
}

/** `name=soft[:hard]` items, comma-separated, as `--ulimit` takes them. */
function ulimits(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const items = value.split(',').map((u) => u.trim());
  for (const u of items) {
    if (!/^[a-z]+=-?\d+(:-?\d+)?$/u.test(u)) throw new RangeError(`FOLIO_EXECUTOR_ULIMITS items look like nofile=1024:1024, not "${u}"`);
  }
  return items;
}

/** The container executor's options as the environment sets them. */
export function containerOptionsFromEnv(env: Env): ContainerExecutorOptions {
  const network = env.FOLIO_EXECUTOR_EGRESS_NETWORK;
  const proxyUrl = env.FOLIO_EXECUTOR_EGRESS_PROXY;
  if ((network === undefined) !== (proxyUrl === undefined)) {
    throw new RangeError('FOLIO_EXECUTOR_EGRESS_NETWORK and FOLIO_EXECUTOR_EGRESS_PROXY go together');
  }
  const pids = positive(env.FOLIO_EXECUTOR_PIDS, 'FOLIO_EXECUTOR_PIDS');
  const idleMinutes = positive(env.FOLIO_EXECUTOR_IDLE_MINUTES, 'FOLIO_EXECUTOR_IDLE_MINUTES');
  const limitsOfHost = ulimits(env.FOLIO_EXECUTOR_ULIMITS);
  return {
    ...(env.FOLIO_EXECUTOR_OCI_RUNTIME ? { ociRuntime: env.FOLIO_EXECUTOR_OCI_RUNTIME } : {}),
    ...(limitsOfHost ? { ulimits: limitsOfHost } : {}),
    ...(env.FOLIO_EXECUTOR_RUNTIME ? { runtime: env.FOLIO_EXECUTOR_RUNTIME } : {}),
    ...(env.FOLIO_EXECUTOR_IMAGE ? { image: env.FOLIO_EXECUTOR_IMAGE } : {}),
    limits: {
      ...(env.FOLIO_EXECUTOR_CPUS ? { cpus: env.FOLIO_EXECUTOR_CPUS } : {}),
      ...(env.FOLIO_EXECUTOR_MEMORY ? { memory: env.FOLIO_EXECUTOR_MEMORY } : {}),
      ...(pids !== undefined ? { pids } : {}),
    },
    ...(idleMinutes !== undefined ? { idleMs: idleMinutes * 60_000 } : {}),
    ...(network !== undefined && proxyUrl !== undefined ? { egress: { network, proxyUrl } } : {}),
  };
}

export function executorFromEnv(env: Env = process.env): Executor {
  const kind = env.FOLIO_EXECUTOR ?? 'bubblewrap';
  if (kind === 'bubblewrap' || kind === '') return new BubblewrapExecutor();
  if (kind === 'container') return new ContainerExecutor(containerOptionsFromEnv(env));
  throw new RangeError(`FOLIO_EXECUTOR must be bubblewrap or container, not "${kind}"`);
}

/**
 * Stands in when the configuration is wrong: the tools say why in their descriptions and results,
 * instead of a run failing on an exception from a description getter, and nothing runs unisolated.
 */
export class MisconfiguredExecutor implements Executor {
  readonly kind = 'container';
  readonly hostFilesystem = false;
  constructor(private readonly why: string) {}
  shownRoot(root: string): string {
    return root;
  }
  status(): { active: boolean; reason: string } {
    return { active: false, reason: this.why };
  }
  note(): string {
    return `Cannot run programs (${this.why}).`;
  }
  run(): Promise<ExecResult> {
    return Promise.reject(new ExecutorError(`Cannot run programs: ${this.why}.`));
  }
  async release(): Promise<void> {
    // holds nothing
  }
  async close(): Promise<void> {
    // holds nothing
  }
}

/**
 * `executor` for as long as it isolates programs, and a refusal that says why whenever it does not.
 * For the team service: bubblewrap's fallback runs a program unsandboxed, which on a desktop is the
 * user's own machine, but on a shared worker is every tenant's files (and the worker's secrets).
 * Asked at every call, not once: a container engine that did not answer at start (a busy host, a
 * daemon restarting) is used as soon as it does.
 */
export function isolatedOnly(executor: Executor): Executor {
  const refusal = (): MisconfiguredExecutor | null => {
    const { active, reason } = executor.status();
    if (active) return null;
    return new MisconfiguredExecutor(`the team service runs programs only isolated, and ${reason.replace(/\.$/u, '')}; give the worker user namespaces for bubblewrap, or set FOLIO_EXECUTOR=container`);
  };
  return {
    kind: executor.kind,
    hostFilesystem: executor.hostFilesystem,
    shownRoot: (root) => executor.shownRoot(root),
    status: () => refusal()?.status() ?? executor.status(),
    note: () => refusal()?.note() ?? executor.note(),
    run: (argv, options) => refusal()?.run() ?? executor.run(argv, options),
    release: (taskId) => executor.release(taskId),
    close: () => executor.close(),
  };
}

let chosen: Executor | null = null;
let isolationRequired = false;

/** From now on the process runs programs isolated or not at all (see isolatedOnly). */
export function requireIsolation(): void {
  isolationRequired = true;
  if (chosen) chosen = isolatedOnly(chosen);
}

/** The process's executor, chosen from the environment on first use. */
export function defaultExecutor(): Executor {
  if (!chosen) {
    try {
      chosen = executorFromEnv();
    } catch (err) {
      chosen = new MisconfiguredExecutor(err instanceof Error ? err.message : String(err));
    }
    if (isolationRequired) chosen = isolatedOnly(chosen);
  }
  return chosen;
}

/**
 * Frees what the process's executor holds for these tasks (their containers) and nothing else: the
 * executor is the process's, and in the team service every tenant's cores share it, so one core
 * closing must leave the others' containers (and the calls running in them) alone.
 */
export async function releaseTasks(taskIds: Iterable<string>): Promise<void> {
  const current = chosen;
  if (current === null) return;
  await Promise.all([...taskIds].map((taskId) => current.release(taskId)));
}

/** Frees everything the process's executor holds (every task's container); for the process's shutdown. */
export async function closeDefaultExecutor(): Promise<void> {
  const current = chosen;
  chosen = null;
  await current?.close();
}
