// What a task's container is started with and how it is addressed: the `run`/`exec` arguments
// (every isolation flag in one place), where host folders appear inside, and the rewriting of host
// paths and the container's name in what crosses the boundary. container-executor.ts drives them.
import { createHash } from 'node:crypto';
import { ExecutorError } from './executor';
import type { NetworkPolicy } from './network';
/** Where the task folder is inside the container. */
export const WORKSPACE = '/workspace';
/** Where read-only folders from outside the task folder are mounted, each under a hash of its host path. */
const EXTRA_MOUNTS = '/opt/folio-mounts';
/** Every container's hostname. */
export const CONTAINER_HOSTNAME = 'sandbox';
/** The label every container of ours carries, with the task id as its value. */
export const TASK_LABEL = 'folio.task';
/** `<hostname>:<pid>` of the Folio process that started the container, to find orphans after a crash. */
export const OWNER_LABEL = 'folio.owner';

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

/** Everything a task's container is started with; a run that needs a different one gets a new container. */
export interface ContainerSpec {
  name: string;
  taskId: string;
  owner: string;
  image: string;
  user: string;
  limits: ContainerLimits;
  /** The task folder, mounted read-write at /workspace. */
  root: string;
  /** Mounted read-only after the task folder (so one inside it is read-only); see `containerPath`. */
  readOnly: readonly string[];
  /** `none`, `bridge` or the egress network. */
  network: string;
  ociRuntime?: string;
  ulimits?: readonly string[];
}

/** A bind mount path must not carry the separators of `--mount`'s own syntax. */
function mountPath(p: string): string {
  if (/[,="\n]/u.test(p)) throw new ExecutorError(`Cannot mount ${p} into a container: the path contains a comma, quote or "=".`);
  return p;
}

/**
 * Where a host folder of the spec is in the container: the task folder at /workspace (what is inside
 * it below), a folder from elsewhere at a name that says nothing of where it is on the host.
 */
export function containerPath(spec: Pick<ContainerSpec, 'root'>, hostPath: string): string {
  if (hostPath === spec.root) return WORKSPACE;
  if (hostPath.startsWith(`${spec.root}/`)) return `${WORKSPACE}${hostPath.slice(spec.root.length)}`;
  return `${EXTRA_MOUNTS}/${createHash('sha256').update(hostPath).digest('hex').slice(0, 12)}`;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/**
 * Rewrites the spec's host folders to their container paths wherever they appear in a text (a
 * command, an argument, an environment value, an error), and names the container neutrally.
 */
export function pathRewriter(spec: Pick<ContainerSpec, 'root' | 'readOnly' | 'name'>, containerId = ''): (text: string) => string {
  const folders = [spec.root, ...spec.readOnly].sort((a, b) => b.length - a.length);
  const pairs: [RegExp, string][] = folders.map((host) => [new RegExp(`${escapeRegExp(host)}(?![\\w.-])`, 'gu'), containerPath(spec, host)]);
  const ids = [containerId, containerId.slice(0, 12), spec.name].filter((id) => id.length >= 8);
  for (const id of ids) pairs.push([new RegExp(escapeRegExp(id), 'gu'), 'the-container']);
  return (text) => pairs.reduce((out, [pattern, to]) => out.replace(pattern, to), text);
}

/** `docker run` arguments for a task's container: every isolation flag is here, in one place. */
export function containerRunArgs(spec: ContainerSpec): string[] {
  const { limits } = spec;
  const mounts = [
    ['--mount', `type=bind,source=${mountPath(spec.root)},target=${WORKSPACE}`],
    ...spec.readOnly.map((p) => ['--mount', `type=bind,source=${mountPath(p)},target=${containerPath(spec, p)},readonly`]),
  ].flat();
  return [
    'run', '--detach', '--rm', '--pull', 'never',
    ...(spec.ociRuntime ? ['--runtime', spec.ociRuntime] : []),
    ...(spec.ulimits ?? []).flatMap((u) => ['--ulimit', u]),
    '--name', spec.name,
    '--hostname', CONTAINER_HOSTNAME,
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
    '--workdir', WORKSPACE,
    // Its pid 1 is `sleep`, which ignores SIGTERM: removing it would wait out the engine's grace period.
    '--stop-signal', 'KILL',
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

/** The owner label's value in `ps --format {{.Labels}}`: docker prints `k=v,k=v`, podman `map[k:v k:v]`. */
export function ownerFromLabels(labels: string): string | null {
  const match = new RegExp(`${escapeRegExp(OWNER_LABEL)}[=:]([^,\\s\\]]+)`, 'u').exec(labels);
  return match?.[1] ?? null;
}
