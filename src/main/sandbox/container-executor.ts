// The container executor: programs of a task run in one long-lived container per task, driven through
// the runtime's CLI (docker or podman), one `exec` per call. What the container enforces, and what it
// does not, is in docs/security.md ("Executors"); in short:
//   - read-only root file system, no new privileges, every capability dropped, a non-root user, a
//     process, CPU and memory limit, a private tmpfs /tmp;
//   - only the task folder (read-write, at /workspace) and the folders a run names read-only (the
//     person's originals inside it, Folio's package folder for run_script's imports under /opt) are
//     mounted; Folio's data folder is simply not there. Host paths in a call (the tools compute them)
//     are rewritten to the container's, and what comes back names neither a host path nor the
//     container, so the model never learns where on the worker a task lives;
//   - a neutral hostname (nothing of the worker, the tenant or the task);
//   - no network (`--network none`) unless the task allows it; an allowlist needs an operator-made
//     internal network whose only way out is a forward proxy (see `egress`).
// Calls of one task run one after another: after each, every process the call left behind is killed
// (`kill -KILL -1` inside, which spares only the container's pid 1), as bubblewrap's PID namespace
// does, so a background job cannot outlive its call nor disturb the next one.
// A container idle for `idleMs` is removed (an unref'd timer); `release`/`close` remove them at once;
// containers left by a Folio process on this host that is no longer running are removed on first use.
// The image is never pulled implicitly (`--pull never`): a missing image is an error that says so.
// deploy/container/build-image.sh builds the default one from Debian packages; docs/deploy.md has the
// engine settings (`ociRuntime`, `ulimits`) some hosts need.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExecutorError, type Executor, type ExecOptions, type ExecResult, type ExecutorStatus } from './executor';
import {
  containerExecArgs,
  containerName,
  containerNetwork,
  containerRunArgs,
  type ContainerLimits,
  type ContainerSpec,
  DEFAULT_LIMITS,
  type EgressConfig,
  ownerFromLabels,
  pathRewriter,
  TASK_LABEL,
  WORKSPACE,
} from './container-spec';
import { mapProgramOutput, spawnCaptured } from './process';
import { findOnPath, SANDBOX_HOME } from './sandbox';

export * from './container-spec';

/** Built locally by deploy/container/build-image.sh: a shell, Python 3 with numpy/pandas/matplotlib, Node. */
export const DEFAULT_IMAGE = 'folio-tools:bookworm';
/** The image's PATH, not this machine's: the program runs the image's binaries. */
const CONTAINER_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
// A busy host answers `info` slowly; a failed probe is tried again after RETRY_PROBE_MS.
const INFO_TIMEOUT_MS = 30_000;
const RETRY_PROBE_MS = 30_000;
const CONTROL_TIMEOUT_MS = 60_000;


export interface ContainerExecutorOptions {
  /** The runtime CLI: a name on PATH or a path. Default: `docker`, else `podman`: the first on PATH whose `info` works. */
  runtime?: string;
  image?: string;
  limits?: Partial<ContainerLimits>;
  /**
   * `--user`; default this process's uid:gid, so the task folder's files stay the worker's. A worker
   * running as root gives the task folder's owner instead (root when root owns it: without a single
   * capability, so it cannot pass a permission check, on a read-only system with nothing else mounted).
   */
  user?: string;
  /** Remove a task's container after this long without a call. */
  idleMs?: number;
  egress?: EgressConfig;
  /** The environment of the runtime CLI itself (DOCKER_HOST ...), never of the program. Default: this process's. */
  clientEnv?: NodeJS.ProcessEnv;
  /** `--runtime`: the OCI runtime the engine starts containers with (`runc` where crun cannot run). */
  ociRuntime?: string;
  /** `--ulimit` values (`nofile=1024:1024`), for hosts that refuse the engine's default limits. */
  ulimits?: readonly string[];
}



function defaultUser(root: string): string {
  const uid = process.getuid?.() ?? 65534;
  const gid = process.getgid?.() ?? 65534;
  if (uid !== 0) return `${uid}:${gid}`;
  // Any other user could not write the folder: a bind mount keeps the host's owners and modes.
  const owner = fs.statSync(root);
  return `${owner.uid}:${owner.gid}`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

interface Held {
  spec: ContainerSpec;
  /** Host paths to container ones, container name and id to a neutral word. */
  rewrite: (text: string) => string;
  idle?: NodeJS.Timeout;
}


export class ContainerExecutor implements Executor {
  readonly kind = 'container';
  readonly hostFilesystem = false;
  private readonly image: string;
  private readonly limits: ContainerLimits;
  private readonly user: string | undefined;
  private readonly idleMs: number;
  private readonly owner = `${os.hostname()}:${process.pid}`;
  private readonly held = new Map<string, Held>();
  /** Each task's calls, one after another: the end of the last one queued. */
  private readonly queues = new Map<string, Promise<void>>();
  private cached: (ExecutorStatus & { runtime: string; at: number }) | null = null;
  private orphansSwept: Promise<void> | null = null;

  constructor(private readonly options: ContainerExecutorOptions = {}) {
    this.image = options.image ?? DEFAULT_IMAGE;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.user = options.user;
    this.idleMs = options.idleMs ?? 10 * 60_000;
  }

  shownRoot(): string {
    return WORKSPACE;
  }

  status(): ExecutorStatus {
    if (!this.cached || (!this.cached.active && Date.now() - this.cached.at > RETRY_PROBE_MS)) this.cached = { ...this.probe(), at: Date.now() };
    return { active: this.cached.active, reason: this.cached.reason };
  }

  note(): string {
    const status = this.status();
    return status.active
      ? `Runs in a container: the task folder is ${WORKSPACE} (the working directory), the system is read-only, only the task folder and a private, empty /tmp are writable; ` +
          'the network is off unless the person allows it for this task.'
      : `Cannot run programs (${status.reason}).`;
  }

  private probe(): ExecutorStatus & { runtime: string } {
    const wanted = this.options.runtime ? [this.options.runtime] : ['docker', 'podman'];
    const installed = wanted.map(findOnPath).filter((p): p is string => p !== null);
    if (installed.length === 0) return { active: false, runtime: '', reason: `no container runtime: ${wanted.join(' or ')} is not installed` };
    // A docker CLI without its daemon is common beside a working podman: the first that answers wins.
    let failed: ExecutorStatus & { runtime: string } = { active: false, runtime: '', reason: '' };
    for (const candidate of installed) {
      const info = spawnSync(candidate, ['info'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: INFO_TIMEOUT_MS, env: this.clientEnv() });
      if (!info.error && info.status === 0) return this.ready(candidate);
      const why = info.error?.message ?? (firstLine(info.stderr.toString('utf8')) || `exit code ${info.status ?? 'unknown'}`);
      if (failed.runtime === '') failed = { active: false, runtime: candidate, reason: `no container runtime: \`${path.basename(candidate)} info\` failed (${why})` };
    }
    return failed;
  }

  private ready(runtime: string): ExecutorStatus & { runtime: string } {
    const name = path.basename(runtime);
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
      // `.Labels`, not `.Label "…"`: podman's templates have no Label method, docker's Labels is a string.
      const listed = await this.control(['ps', '--all', '--filter', `label=${TASK_LABEL}`, '--format', '{{.Names}}\t{{.Labels}}']);
      if (!listed.ok) return;
      const host = os.hostname();
      for (const line of listed.stdout.split('\n')) {
        const [name, labels] = line.trim().split('\t');
        const owner = ownerFromLabels(labels ?? '');
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
    const { spec, rewrite } = await this.ensureContainer(options, network);
    const held = this.held.get(options.taskId);
    if (held?.idle) clearTimeout(held.idle);
    const env = Object.fromEntries(
      Object.entries({ ...options.env, PATH: CONTAINER_PATH, HOME: SANDBOX_HOME, TMPDIR: '/tmp', ...this.proxyEnv(network) }).map(([k, v]) => [k, rewrite(v)]),
    );
    const stopping: Promise<void>[] = [];
    try {
      const result = await spawnCaptured({
        file: this.cached?.runtime ?? '',
        args: containerExecArgs(spec.name, argv.map(rewrite), { cwd: rewrite(options.cwd), env }),
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
      // The engine's own messages (a program not found, a container gone) may name either.
      const output = mapProgramOutput(result, rewrite);
      // A stopped exec client may exit 0 (podman does on SIGTERM) though the program was killed.
      const killed = (result.timedOut || result.aborted) && result.exitCode === 0;
      return { ...result, ...output, ...(killed ? { exitCode: null, signal: 'SIGKILL' as const } : {}) };
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

  private async ensureContainer(options: ExecOptions, network: string): Promise<Held> {
    const current = this.held.get(options.taskId);
    const wantedReadOnly = (options.readOnlyPaths ?? []).filter((p) => fs.existsSync(p));
    if (current) {
      const { spec } = current;
      const fits = spec.root === options.root && spec.network === network && wantedReadOnly.every((p) => spec.readOnly.includes(p));
      if (fits) return current;
      // Mounts and network are fixed when a container starts: a new one gets what the old one had and more.
      wantedReadOnly.push(...spec.readOnly.filter((p) => spec.root === options.root && !wantedReadOnly.includes(p)));
      await this.remove(options.taskId);
    }
    const spec: ContainerSpec = {
      name: containerName(options.taskId, this.owner),
      taskId: options.taskId,
      owner: this.owner,
      image: this.image,
      user: this.user ?? defaultUser(options.root),
      limits: this.limits,
      root: options.root,
      readOnly: [...new Set(wantedReadOnly)],
      network,
      ...(this.options.ociRuntime ? { ociRuntime: this.options.ociRuntime } : {}),
      ...(this.options.ulimits ? { ulimits: this.options.ulimits } : {}),
    };
    // A container of the same name (left by this process when it lost track of one) is in the way.
    await this.control(['rm', '--force', spec.name]);
    const started = await this.control(containerRunArgs(spec));
    if (!started.ok) {
      const why = pathRewriter(spec)(firstLine(started.stderr));
      const missing = /no such image|unable to find image|image not known/iu.test(why);
      throw new ExecutorError(
        missing
          ? `The container image ${this.image} is not on this machine, and Folio does not pull images during a tool call: build it with deploy/container/build-image.sh (or set FOLIO_EXECUTOR_IMAGE to one that is there).`
          : `Could not start the task's container: ${why}`,
      );
    }
    const held: Held = { spec, rewrite: pathRewriter(spec, started.stdout.trim()) };
    this.held.set(options.taskId, held);
    await this.control(['exec', spec.name, 'mkdir', '-p', SANDBOX_HOME]);
    return held;
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
