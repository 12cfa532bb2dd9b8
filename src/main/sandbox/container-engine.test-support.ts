// The real container engine the tests run against, where there is one: docker or podman on PATH, a
// working `info`, and the tools image (deploy/container/build-image.sh; CI builds it). On hosts whose
// kernel crun cannot drive (hybrid cgroups) podman needs runc and explicit ulimits, as in
// docs/deploy.md; FOLIO_EXECUTOR_* in the environment override these, as they do for the workers.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { DEFAULT_IMAGE, type ContainerExecutorOptions } from './container-executor';
import { findOnPath } from './sandbox';
import { containerOptionsFromEnv } from './select-executor';

export interface RealEngine {
  /** Why the tests cannot run here (names what is missing), or null. */
  skip: string | null;
  /** The engine CLI's path ('' when skipped). */
  runtime: string;
  options: ContainerExecutorOptions;
}

let found: RealEngine | null = null;

export function realContainerEngine(): RealEngine {
  if (found) return found;
  const fromEnv = containerOptionsFromEnv(process.env);
  const installed = (fromEnv.runtime ? [fromEnv.runtime] : ['docker', 'podman']).map(findOnPath).filter((p): p is string => p !== null);
  // A docker CLI without a daemon beside a working podman: the first that answers.
  const runtime = installed.find((p) => spawnSync(p, ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0) ?? installed[0] ?? '';
  const options: ContainerExecutorOptions = {
    runtime,
    ...(findOnPath('runc') ? { ociRuntime: 'runc' } : {}),
    ulimits: ['nofile=1024:1024', 'nproc=1024:1024'],
    ...fromEnv,
  };
  const image = options.image ?? DEFAULT_IMAGE;
  let skip: string | null = null;
  if (!runtime) skip = 'no container engine: podman (or docker) is not installed';
  else if (spawnSync(runtime, ['info'], { stdio: 'ignore', timeout: 20_000 }).status !== 0) skip = `no container engine: \`${runtime} info\` fails`;
  else if (spawnSync(runtime, ['image', 'inspect', image], { stdio: 'ignore', timeout: 20_000 }).status !== 0) {
    skip = `the image ${image} is not built (run deploy/container/build-image.sh)`;
  }
  found = { skip, runtime, options };
  return found;
}

/** `ps` of the engine: the ids and names of this process's containers for a task. */
export function taskContainers(engine: RealEngine, taskId: string): { id: string; name: string }[] {
  const filters = ['--filter', `label=folio.task=${taskId}`, '--filter', `label=folio.owner=${os.hostname()}:${process.pid}`];
  const out = spawnSync(engine.runtime, ['ps', '--all', '--no-trunc', ...filters, '--format', '{{.ID}}\t{{.Names}}'], { encoding: 'utf8' });
  return out.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id = '', name = ''] = line.split('\t');
      return { id, name };
    });
}
