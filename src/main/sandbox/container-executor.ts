// The container executor: programs of a task run in one long-lived container per task, driven through
// the runtime's CLI (docker or podman), one `exec` per call. What the container enforces, and what it
// does not, is in docs/security.md ("Executors"); in short:
//   - read-only root file system, no new privileges, every capability dropped, a non-root user, a
//     process, CPU and memory limit, a private tmpfs /tmp;
//   - only the task folder (read-write) and the folders a run names read-only (the person's
//     originals, Folio's package folder for run_script's imports) are mounted, at their host paths,
//     so paths the tools computed need no translation; Folio's data folder is simply not there;
//   - no network (`--network none`) unless the task allows it; an allowlist needs an operator-made
//     internal network whose only way out is a forward proxy (see `egress`).
// Calls of one task run one after another: after each, every process the call left behind is killed
// (`kill -KILL -1` inside, which spares only the container's pid 1), as bubblewrap's PID namespace
// does, so a background job cannot outlive its call nor disturb the next one.
// A container idle for `idleMs` is removed (an unref'd timer); `release`/`close` remove them at once;
// containers left by a Folio process on this host that is no longer running are removed on first use.
// The image is never pulled implicitly (`--pull never`): a missing image is an error that says so.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExecutorError, type Executor, type ExecOptions, type ExecResult, type ExecutorStatus } from './executor';
import type { NetworkPolicy } from './network';
import { spawnCaptured } from './process';
import { findOnPath, SANDBOX_HOME } from './sandbox';

export const DEFAULT_IMAGE = 'node:20-bookworm-slim';
/** The label every container of ours carries, with the task id as its value. */
export const TASK_LABEL = 'folio.task';
/** `<hostname>:<pid>` of the Folio process that started the container, to find orphans after a crash. */
export const OWNER_LABEL = 'folio.owner';
/** The image's PATH, not this machine's: the program runs the image's binaries. */
const CONTAINER_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const INFO_TIMEOUT_MS = 10_000;
const CONTROL_TIMEOUT_MS = 60_000;

export interface ContainerLimits {
  /** `--cpus`: how many CPUs' worth of time the container may use. */
  cpus: string;
  /** `--memory` (and `--memory-swap`, so no swap beyond it): e.g. `1g`. */
  memory: string;
  /** `--pids-limit`: a fork bomb stops here. */
  pids: number;
  /** Size of the private /tmp (it counts against memory). */
  tmpSize: string;
}

export const DEFAULT_LIMITS: ContainerLimits = { cpus: '1', memory: '1g', pids: 256, tmpSize: '256m' };

export interface EgressConfig {
  /**
   * A network the operator created with `--internal` (no route out), on which a forward proxy that
   * holds the allowlist also sits. Checked at start: a network that is not internal is refused.
   */
  network: string;
  /** The proxy's URL as seen from the container (`http://egress-proxy:3128`). */
  proxyUrl: string;
}

export interface ContainerExecutorOptions {
  /** The runtime CLI: a name on PATH or a path. Default: `docker`, else `podman`, whichever is on PATH. */
  runtime?: string;
  image?: string;
  limits?: Partial<ContainerLimits>;
  /** `--user`; default this process's uid:gid (so the task folder's files stay the person's), 65534 for root. */
  user?: string;
  /** Remove a task's container after this long without a call. */
  idleMs?: number;
  egress?: EgressConfig;
  /** The environment of the runtime CLI itself (DOCKER_HOST ...), never of the program. Default: this process's. */
  clientEnv?: NodeJS.ProcessEnv;
}

/** Everything a task's container is started with; a run that needs a different one gets a new container. */
export interface ContainerSpec {
  name: string;
  taskId: string;
  owner: string;
  image: string;
  user: string;
  limits: ContainerLimits;
  /** The task folder, mounted read-write at the same path. */
  root: string;
  /** Mounted read-only at their own paths, after the task folder (so one inside it is read-only). */
  readOnly: readonly string[];
  /** `none`, `bridge` or the egress network. */
  network: string;
}

/** A bind mount path must not carry the separators of `--mount`'s own syntax. */
function mountPath(p: string): string {
  if (/[,="\n]/u.test(p)) throw new ExecutorError(`Cannot mount ${p} into a container: the path contains a comma, quote or "=".`);
  return p;
}

/** `docker run` arguments for a task's container: every isolation flag is here, in one place. */
export function containerRunArgs(spec: ContainerSpec): string[] {
  const { limits } = spec;
  const mounts = [
    ['--mount', `type=bind,source=${mountPath(spec.root)},target=${mountPath(spec.root)}`],
    ...spec.readOnly.map((p) => ['--mount', `type=bind,source=${mountPath(p)},target=${mountPath(p)},readonly`]),
  ].flat();
  return [
    'run', '--detach', '--rm', '--pull', 'never',
    '--name', spec.name,
    '--label', `${TASK_LABEL}=${spec.taskId}`,
    '--label', `${OWNER_LABEL}=${spec.owner}`,
    '--read-only',
    '--security-opt', 'no-new-privileges',
    '--cap-drop', 'ALL',
    '--user', spec.user,
    '--pids-limit', String(limits.pids),
    '--cpus', limits.cpus,
    '--memory', limits.memory,
    '--memory-swap', limits.memory,
    '--network', spec.network,
    '--ipc', 'private',
    '--tmpfs', `/tmp:rw,nosuid,nodev,size=${limits.tmpSize}`,
    ...mounts,
    '--workdir', spec.root,
    '--entrypoint', 'sleep',
    spec.image, 'infinity',
  ];
}

/** `docker exec` arguments for one call: the program's whole environment is given here, nothing inherited. */
export function containerExecArgs(name: string, argv: readonly string[], options: { cwd: string; env: Record<string, string> }): string[] {
  const env = Object.entries(options.env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
  return ['exec', '--workdir', options.cwd, ...env, name, ...argv];
}

/** The container's network for a policy, or why it cannot be given. */
export function containerNetwork(policy: NetworkPolicy, egress: EgressConfig | undefined): string {
  if (policy === 'none') return 'none';
  if (egress) return egress.network;
  if (policy === 'open') return 'bridge';
  throw new ExecutorError(
    'An egress allowlist needs an egress proxy (FOLIO_EXECUTOR_EGRESS_NETWORK and FOLIO_EXECUTOR_EGRESS_PROXY); without one the program gets no network.',
  );
}

/**
 * A container name from a task id and the Folio process that owns it: valid whatever characters the
 * id has, and distinct per process, so two workers sharing an engine never remove each other's.
 */
export function containerName(taskId: string, owner: string): string {
  return `folio-task-${createHash('sha256').update(`${owner}\u0000${taskId}`).digest('hex').slice(0, 16)}`;
}


function defaultUser(): string {
  const uid = process.getuid?.() ?? 65534;
  const gid = process.getgid?.() ?? 65534;
  return uid === 0 ? '65534:65534' : `${uid}:${gid}`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

interface Held {
  spec: ContainerSpec;
  idle?: NodeJS.Timeout;
}

export class ContainerExecutor implements Executor {
  readonly kind = 'container';
  readonly hostFilesystem = false;
  private readonly image: string;
  private readonly limits: ContainerLimits;
  private readonly user: string;
  private readonly idleMs: number;
  private readonly owner = `${os.hostname()}:${process.pid}`;
  private readonly held = new Map<string, Held>();
  /** Each task's calls, one after another: the end of the last one queued. */
  private readonly queues = new Map<string, Promise<void>>();
  private cached: (ExecutorStatus & { runtime: string }) | null = null;
  private orphansSwept: Promise<void> | null = null;

  constructor(private readonly options: ContainerExecutorOptions = {}) {
    this.image = options.image ?? DEFAULT_IMAGE;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.user = options.user ?? defaultUser();
    this.idleMs = options.idleMs ?? 10 * 60_000;
  }

  status(): ExecutorStatus {
    this.cached ??= this.probe();
    return { active: this.cached.active, reason: this.cached.reason };
  }

  note(): string {
    const status = this.status();
    return status.active
      ? "Runs in a container: the system is read-only, only the task folder and a private, empty /tmp are writable, Folio's data is not there; " +
          'the network is off unless the person allows it for this task.'
      : `Cannot run programs (${status.reason}).`;
  }

  private probe(): ExecutorStatus & { runtime: string } {
    const wanted = this.options.runtime ? [this.options.runtime] : ['docker', 'podman'];
    const runtime = wanted.map(findOnPath).find((p): p is string => p !== null);
    if (!runtime) return { active: false, runtime: '', reason: `no container runtime: ${wanted.join(' or ')} is not installed` };
    const name = path.basename(runtime);
    const info = spawnSync(runtime, ['info'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: INFO_TIMEOUT_MS, env: this.clientEnv() });
    if (info.error || info.status !== 0) {
      const why = info.error?.message ?? (firstLine(info.stderr.toString('utf8')) || `exit code ${info.status ?? 'unknown'}`);
      return { active: false, runtime, reason: `no container runtime: \`${name} info\` failed (${why})` };
    }
    const egress = this.options.egress;
    if (egress) {
      const net = spawnSync(runtime, ['network', 'inspect', '--format', '{{.Internal}}', egress.network], { timeout: INFO_TIMEOUT_MS, env: this.clientEnv() });
      if (net.status !== 0 || net.stdout.toString('utf8').trim() !== 'true') {
        return { active: false, runtime, reason: `egress network ${egress.network} is missing or not internal (it must have no route out but the proxy)` };
      }
    }
    return {
      active: true,
      runtime,
      reason: `isolated in ${name} containers (${this.image}): read-only root, no new privileges, no capabilities, ${this.limits.cpus} CPU, ${this.limits.memory} memory, no network unless the task allows it`,
    };
  }

  private clientEnv(): NodeJS.ProcessEnv {
    return this.options.clientEnv ?? process.env;
  }

  /** Runs the runtime CLI for our own bookkeeping (not a program of the model's). */
  private control(args: readonly string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
    const runtime = this.cached?.runtime ?? '';
    return new Promise((resolve) => {
      execFile(runtime, args, { env: this.clientEnv(), timeout: CONTROL_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
        resolve({ ok: err === null, stdout: String(stdout), stderr: String(stderr) || (err?.message ?? '') });
      });
    });
  }

  /** Removes containers a Folio process on this host started and did not live to remove. */
  private sweepOrphans(): Promise<void> {
    this.orphansSwept ??= (async () => {
      const listed = await this.control(['ps', '--all', '--filter', `label=${TASK_LABEL}`, '--format', `{{.Names}}\t{{.Label "${OWNER_LABEL}"}}`]);
      if (!listed.ok) return;
      const host = os.hostname();
      for (const line of listed.stdout.split('\n')) {
        const [name, owner] = line.trim().split('\t');
        if (!name || !owner) continue;
        const sep = owner.lastIndexOf(':');
        const pid = Number(owner.slice(sep + 1));
        // Another host's containers belong to a worker that may well be alive: never ours to remove.
        if (owner.slice(0, sep) !== host || owner === this.owner || isAlive(pid)) continue;
        await this.control(['rm', '--force', name]);
      }
    })();
    return this.orphansSwept;
  }

  async run(argv: readonly string[], options: ExecOptions): Promise<ExecResult> {
    const status = this.status();
    if (!status.active) throw new ExecutorError(`Cannot run programs: ${status.reason}.`);
    if (argv.length === 0) throw new RangeError('run needs a program');
    const network = containerNetwork(options.network, this.options.egress);
    const call = (this.queues.get(options.taskId) ?? Promise.resolve()).then(() => this.runNow(argv, options, network));
    const tail = call.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(options.taskId, tail);
    void tail.then(() => {
      if (this.queues.get(options.taskId) === tail) this.queues.delete(options.taskId);
    });
    return await call;
  }

  private async runNow(argv: readonly string[], options: ExecOptions, network: string): Promise<ExecResult> {
    await this.sweepOrphans();
    const spec = await this.ensureContainer(options, network);
    const held = this.held.get(options.taskId);
    if (held?.idle) clearTimeout(held.idle);
    const env = { ...options.env, PATH: CONTAINER_PATH, HOME: SANDBOX_HOME, TMPDIR: '/tmp', ...this.proxyEnv(network) };
    const stopping: Promise<void>[] = [];
    try {
      return await spawnCaptured({
        file: this.cached?.runtime ?? '',
        args: containerExecArgs(spec.name, argv, { cwd: options.cwd, env }),
        cwd: os.tmpdir(),
        env: Object.fromEntries(Object.entries(this.clientEnv()).filter((e): e is [string, string] => e[1] !== undefined)),
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        label: options.label,
        // Killing the exec client leaves the program running in the container: kill it there.
        onStop: () => {
          stopping.push(this.killLeftovers(spec));
        },
      });
    } finally {
      await Promise.all(stopping);
      await this.killLeftovers(spec);
      this.armIdle(options.taskId);
    }
  }

  private proxyEnv(network: string): Record<string, string> {
    const egress = this.options.egress;
    if (!egress || network !== egress.network) return {};
    const url = egress.proxyUrl;
    return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: 'localhost,127.0.0.1', no_proxy: 'localhost,127.0.0.1' };
  }

  /** Every process of the call, background and `setsid` ones included; a container that will not answer goes. */
  private async killLeftovers(spec: ContainerSpec): Promise<void> {
    const killed = await this.control(['exec', spec.name, '/bin/sh', '-c', 'kill -KILL -1 2>/dev/null; true']);
    if (!killed.ok) await this.remove(spec.taskId);
  }

  private async ensureContainer(options: ExecOptions, network: string): Promise<ContainerSpec> {
    const current = this.held.get(options.taskId);
    const wantedReadOnly = (options.readOnlyPaths ?? []).filter((p) => fs.existsSync(p));
    if (current) {
      const { spec } = current;
      const fits = spec.root === options.root && spec.network === network && wantedReadOnly.every((p) => spec.readOnly.includes(p));
      if (fits) return spec;
      // Mounts and network are fixed when a container starts: a new one gets what the old one had and more.
      wantedReadOnly.push(...spec.readOnly.filter((p) => spec.root === options.root && !wantedReadOnly.includes(p)));
      await this.remove(options.taskId);
    }
    const spec: ContainerSpec = {
      name: containerName(options.taskId, this.owner),
      taskId: options.taskId,
      owner: this.owner,
      image: this.image,
      user: this.user,
      limits: this.limits,
      root: options.root,
      readOnly: [...new Set(wantedReadOnly)],
      network,
    };
    // A container of the same name (left by this process when it lost track of one) is in the way.
    await this.control(['rm', '--force', spec.name]);
    const started = await this.control(containerRunArgs(spec));
    if (!started.ok) {
      const why = firstLine(started.stderr);
      const missing = /no such image|unable to find image|image not known/iu.test(why);
      throw new ExecutorError(
        missing
          ? `The container image ${this.image} is not on this machine, and Folio does not pull images during a tool call: run \`docker pull ${this.image}\` (or set FOLIO_EXECUTOR_IMAGE).`
          : `Could not start the task's container: ${why}`,
      );
    }
    this.held.set(options.taskId, { spec });
    await this.control(['exec', spec.name, 'mkdir', '-p', SANDBOX_HOME]);
    return spec;
  }

  private armIdle(taskId: string): void {
    const held = this.held.get(taskId);
    if (!held) return;
    if (held.idle) clearTimeout(held.idle);
    held.idle = setTimeout(() => void this.release(taskId), this.idleMs);
    held.idle.unref();
  }

  private async remove(taskId: string): Promise<void> {
    const held = this.held.get(taskId);
    if (!held) return;
    this.held.delete(taskId);
    if (held.idle) clearTimeout(held.idle);
    await this.control(['rm', '--force', held.spec.name]);
  }

  async release(taskId: string): Promise<void> {
    // Wait for the task's calls in flight: removing the container under them would fail them.
    await this.queues.get(taskId);
    await this.remove(taskId);
  }

  async close(): Promise<void> {
    await Promise.all([...new Set([...this.held.keys(), ...this.queues.keys()])].map((taskId) => this.release(taskId)));
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
