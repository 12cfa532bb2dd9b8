import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { realContainerEngine, taskContainers } from './container-engine.test-support';
import {
  CONTAINER_HOSTNAME,
  ContainerExecutor,
  containerExecArgs,
  containerName,
  containerNetwork,
  containerPath,
  containerRunArgs,
  type ContainerSpec,
  DEFAULT_LIMITS,
  ownerFromLabels,
  OWNER_LABEL,
  pathRewriter,
  TASK_LABEL,
  WORKSPACE,
} from './container-executor';
import { executorContract } from './executor-contract.test-support';
import { ExecutorError, type ExecOptions } from './executor';
import { type FakeRuntime, installFakeRuntime } from './fake-container-runtime.test-support';
import { containerOptionsFromEnv, executorFromEnv, MisconfiguredExecutor } from './select-executor';

const spec: ContainerSpec = {
  name: 'folio-task-abc',
  taskId: 'task-1',
  owner: 'host:42',
  image: 'folio-tools:bookworm',
  user: '1000:1000',
  limits: DEFAULT_LIMITS,
  root: '/data/tasks/task-1',
  readOnly: ['/data/tasks/task-1/source', '/opt/folio'],
  network: 'none',
};

/** The value after `flag` (every occurrence). */
function values(args: readonly string[], flag: string): string[] {
  return args.flatMap((a, i) => (args[i - 1] === flag ? [a] : []));
}

describe('containerRunArgs', () => {
  const args = containerRunArgs(spec);

  it('carries every isolation flag', () => {
    expect(args[0]).toBe('run');
    expect(args).toContain('--read-only');
    expect(values(args, '--security-opt')).toEqual(['no-new-privileges']);
    expect(values(args, '--cap-drop')).toEqual(['ALL']);
    expect(values(args, '--user')).toEqual(['1000:1000']);
    expect(values(args, '--pids-limit')).toEqual([String(DEFAULT_LIMITS.pids)]);
    expect(values(args, '--cpus')).toEqual([DEFAULT_LIMITS.cpus]);
    expect(values(args, '--memory')).toEqual([DEFAULT_LIMITS.memory]);
    expect(values(args, '--memory-swap')).toEqual([DEFAULT_LIMITS.memory]);
    expect(values(args, '--network')).toEqual(['none']);
    expect(values(args, '--tmpfs')[0]).toMatch(/^\/tmp:rw,nosuid,nodev,size=/u);
    expect(values(args, '--pull')).toEqual(['never']);
    expect(args).toContain('--rm');
    expect(args).toContain('--detach');
    expect(values(args, '--hostname')).toEqual([CONTAINER_HOSTNAME]);
    expect(values(args, '--stop-signal')).toEqual(['KILL']);
  });

  it('passes the engine settings a host needs, and only when given', () => {
    expect(values(args, '--runtime')).toEqual([]);
    const tuned = containerRunArgs({ ...spec, ociRuntime: 'runc', ulimits: ['nofile=1024:1024', 'nproc=1024:1024'] });
    expect(values(tuned, '--runtime')).toEqual(['runc']);
    expect(values(tuned, '--ulimit')).toEqual(['nofile=1024:1024', 'nproc=1024:1024']);
    expect(tuned.indexOf('--runtime')).toBeLessThan(tuned.indexOf(spec.image));
  });

  it('grants nothing more', () => {
    for (const forbidden of ['--privileged', '--cap-add', '--pid', '--userns', '--device', '-v', '--volume', '--env', '-e']) expect(args).not.toContain(forbidden);
    expect(args.join(' ')).not.toContain('docker.sock');
    expect(values(args, '--network')).not.toContain('host');
  });

  it('labels the container with its task and owner', () => {
    expect(values(args, '--label')).toEqual([`${TASK_LABEL}=task-1`, `${OWNER_LABEL}=host:42`]);
    expect(values(args, '--name')).toEqual(['folio-task-abc']);
  });

  it('mounts the task folder read-write at /workspace and the rest read-only, the task folder first', () => {
    const [task, source, folio] = values(args, '--mount');
    expect(task).toBe('type=bind,source=/data/tasks/task-1,target=/workspace');
    expect(source).toBe('type=bind,source=/data/tasks/task-1/source,target=/workspace/source,readonly');
    expect(folio).toMatch(/^type=bind,source=\/opt\/folio,target=\/opt\/folio-mounts\/[0-9a-f]{12},readonly$/u);
    expect(values(args, '--workdir')).toEqual([WORKSPACE]);
  });

  it('keeps the container alive with nothing of the model in it, the image last but one', () => {
    expect(args.slice(-3)).toEqual(['sleep', 'folio-tools:bookworm', 'infinity']);
  });

  it('refuses a path that would change the meaning of --mount', () => {
    expect(() => containerRunArgs({ ...spec, root: '/data/a,readonly=false' })).toThrow(ExecutorError);
  });
});

describe('container paths', () => {
  it('puts the task folder at /workspace and a folder from elsewhere at a name without its host path', () => {
    expect(containerPath(spec, '/data/tasks/task-1')).toBe('/workspace');
    expect(containerPath(spec, '/data/tasks/task-1/work/a.py')).toBe('/workspace/work/a.py');
    expect(containerPath(spec, '/data/tasks/task-10')).not.toContain('/data');
    expect(containerPath(spec, '/opt/folio')).not.toContain('/opt/folio/');
  });

  it('rewrites host folders in commands and messages, whole path segments only, and hides the container', () => {
    const rewrite = pathRewriter(spec, 'f00dcafe'.repeat(8));
    expect(rewrite('cd /data/tasks/task-1 && python3 /data/tasks/task-1/.scripts/s.py /data/tasks/task-10/x')).toBe(
      `cd /workspace && python3 /workspace/.scripts/s.py /data/tasks/task-10/x`,
    );
    expect(rewrite('file:///opt/folio/boot.mjs')).toBe(`file://${containerPath(spec, '/opt/folio')}/boot.mjs`);
    expect(rewrite(`Error: no container with name or ID "folio-task-abc" found; ${'f00dcafe'.repeat(8)} ${'f00dcafe'.repeat(8).slice(0, 12)}`)).toBe(
      'Error: no container with name or ID "the-container" found; the-container the-container',
    );
  });

  it('reads the owner label as docker and podman print labels', () => {
    expect(ownerFromLabels('folio.owner=host-a:42,folio.task=t1')).toBe('host-a:42');
    expect(ownerFromLabels('map[folio.owner:host-a:42 folio.task:t1]')).toBe('host-a:42');
    expect(ownerFromLabels('map[folio.task:t1]')).toBeNull();
  });
});

describe('containerExecArgs', () => {
  it('gives the whole environment explicitly and the program as separate arguments', () => {
    const args = containerExecArgs('c1', ['/bin/sh', '-c', 'echo "$1"; rm -rf /', 'sh'], { cwd: '/data/t/work', env: { PATH: '/usr/bin', HOME: '/tmp/home' } });
    expect(args).toEqual(['exec', '--workdir', '/data/t/work', '--env', 'PATH=/usr/bin', '--env', 'HOME=/tmp/home', 'c1', '/bin/sh', '-c', 'echo "$1"; rm -rf /', 'sh']);
  });
});

describe('containerNetwork', () => {
  const egress = { network: 'folio-egress', proxyUrl: 'http://proxy:3128' };
  it('is none unless the policy opens it', () => {
    expect(containerNetwork('none', undefined)).toBe('none');
    expect(containerNetwork('none', egress)).toBe('none');
  });
  it('goes through the egress network whenever one is configured', () => {
    expect(containerNetwork('open', egress)).toBe('folio-egress');
    expect(containerNetwork({ allow: ['pypi.org'] }, egress)).toBe('folio-egress');
    expect(containerNetwork('open', undefined)).toBe('bridge');
  });
  it('refuses an allowlist it could not enforce rather than opening the network', () => {
    expect(() => containerNetwork({ allow: ['pypi.org'] }, undefined)).toThrow(/egress proxy/u);
  });
});

describe('containerName', () => {
  it('is stable per task and process, distinct across both, and valid whatever the id', () => {
    expect(containerName('a/b c', 'h:1')).toBe(containerName('a/b c', 'h:1'));
    expect(containerName('a/b c', 'h:1')).not.toBe(containerName('a/b d', 'h:1'));
    expect(containerName('a/b c', 'h:1')).not.toBe(containerName('a/b c', 'h:2'));
    expect(containerName('a/b c', 'h:1')).toMatch(/^folio-task-[0-9a-f]{16}$/u);
  });
});

describe('selecting an executor', () => {
  it('is bubblewrap by default and a container executor when asked', () => {
    expect(executorFromEnv({}).kind).toBe('bubblewrap');
    expect(executorFromEnv({ FOLIO_EXECUTOR: 'container' }).kind).toBe('container');
    expect(() => executorFromEnv({ FOLIO_EXECUTOR: 'chroot' })).toThrow(/bubblewrap or container/u);
  });
  it('reads the image, limits and egress from the environment', () => {
    const options = containerOptionsFromEnv({
      FOLIO_EXECUTOR_IMAGE: 'python:3.12-slim',
      FOLIO_EXECUTOR_MEMORY: '2g',
      FOLIO_EXECUTOR_PIDS: '64',
      FOLIO_EXECUTOR_IDLE_MINUTES: '5',
      FOLIO_EXECUTOR_EGRESS_NETWORK: 'egress',
      FOLIO_EXECUTOR_EGRESS_PROXY: 'http://proxy:3128',
    });
    expect(options).toMatchObject({ image: 'python:3.12-slim', limits: { memory: '2g', pids: 64 }, idleMs: 300_000, egress: { network: 'egress', proxyUrl: 'http://proxy:3128' } });
    expect(() => containerOptionsFromEnv({ FOLIO_EXECUTOR_EGRESS_NETWORK: 'egress' })).toThrow(/go together/u);
    expect(() => containerOptionsFromEnv({ FOLIO_EXECUTOR_PIDS: 'many' })).toThrow(/positive/u);
  });
  it('reads the OCI runtime and ulimits a host needs', () => {
    const options = containerOptionsFromEnv({ FOLIO_EXECUTOR_OCI_RUNTIME: 'runc', FOLIO_EXECUTOR_ULIMITS: 'nofile=1024:1024, nproc=1024:1024' });
    expect(options).toMatchObject({ ociRuntime: 'runc', ulimits: ['nofile=1024:1024', 'nproc=1024:1024'] });
    expect(() => containerOptionsFromEnv({ FOLIO_EXECUTOR_ULIMITS: 'nofile 1024' })).toThrow(/nofile=1024:1024/u);
  });
  it('stands in for a wrong configuration with an executor that says why and runs nothing', async () => {
    const wrong = new MisconfiguredExecutor('FOLIO_EXECUTOR must be bubblewrap or container, not "chroot"');
    expect(wrong.status().active).toBe(false);
    expect(wrong.note()).toContain('not "chroot"');
    await expect(wrong.run()).rejects.toThrow(ExecutorError);
  });
});

describe('container executor with a fake runtime', () => {
  const owner = `${os.hostname()}:${process.pid}`;
  let dir: string;
  let root: string;
  let fake: FakeRuntime;
  const open: ContainerExecutor[] = [];

  beforeAll(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-fake-runtime-')));
    root = path.join(dir, 'tasks', 't1');
    fs.mkdirSync(path.join(root, 'source'), { recursive: true });
    fake = installFakeRuntime(dir);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((e) => e.close()));
    fake.clearCalls();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function executor(extra: ConstructorParameters<typeof ContainerExecutor>[0] = {}): ContainerExecutor {
    const made = new ContainerExecutor({ runtime: fake.runtime, clientEnv: fake.clientEnv, ...extra });
    open.push(made);
    return made;
  }
  const run = (taskId: string, extra: Partial<ExecOptions> = {}): ExecOptions => ({ taskId, root, cwd: root, env: { LANG: 'C' }, network: 'none', ...extra });
  const commands = (): string[] => fake.calls().map((c) => c[0] ?? '');

  it('is unavailable, with the reason, when the runtime is missing or its daemon is down', () => {
    const missing = new ContainerExecutor({ runtime: path.join(dir, 'no-such-docker') });
    expect(missing.status()).toEqual({ active: false, reason: expect.stringMatching(/^no container runtime: .*no-such-docker is not installed$/u) as string });
    const other = installFakeRuntime(path.join(dir, 'down'));
    other.stopDaemon();
    const down = new ContainerExecutor({ runtime: other.runtime, clientEnv: other.clientEnv });
    expect(down.status().active).toBe(false);
    expect(down.status().reason).toMatch(/^no container runtime: `docker info` failed \(Cannot connect to the Docker daemon/u);
    expect(down.note()).toMatch(/^Cannot run programs/u);
  });

  it('finds docker on PATH when no runtime is named', () => {
    const saved = process.env.PATH;
    process.env.PATH = `${path.dirname(fake.runtime)}${path.delimiter}${saved ?? ''}`;
    try {
      const found = new ContainerExecutor({ clientEnv: fake.clientEnv });
      expect(found.status().active).toBe(true);
      expect(found.status().reason).toMatch(/^isolated in docker containers \(folio-tools:bookworm\)/u);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('refuses to run where it is unavailable rather than running unisolated', async () => {
    const other = installFakeRuntime(path.join(dir, 'down2'));
    other.stopDaemon();
    const down = new ContainerExecutor({ runtime: other.runtime, clientEnv: other.clientEnv });
    await expect(down.run(['true'], run('t'))).rejects.toThrow(/Cannot run programs: no container runtime/u);
    expect(other.calls().map((c) => c[0])).toEqual(['info']);
  });

  it('starts one container per task and one exec per call, with the image PATH and private HOME', async () => {
    const ex = executor();
    const first = await ex.run(['/bin/sh', '-c', 'echo "$HOME $TMPDIR $LANG"'], run('t1'));
    expect(first.output.trim()).toBe('/tmp/home /tmp C');
    await ex.run(['true'], run('t1'));
    await ex.run(['true'], run('t2'));
    const runs = fake.calls().filter((c) => c[0] === 'run');
    expect(runs.map((c) => values(c, '--label')[0])).toEqual([`${TASK_LABEL}=t1`, `${TASK_LABEL}=t2`]);
    const execs = fake.calls().filter((c) => c[0] === 'exec' && !c.includes('mkdir') && !c.join(' ').includes('kill -KILL -1'));
    expect(execs).toHaveLength(3);
    expect(values(execs[0] ?? [], '--env')).toContain('PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    // After every call, whatever it left behind is killed.
    expect(fake.calls().filter((c) => c.join(' ').includes('kill -KILL -1'))).toHaveLength(3);
  });

  it('starts a new container when the network or mounts change, keeping the mounts it had', async () => {
    const ex = executor();
    const source = path.join(root, 'source');
    await ex.run(['true'], run('t1', { readOnlyPaths: [source] }));
    await ex.run(['true'], run('t1'));
    await ex.run(['true'], run('t1', { network: 'open' }));
    const runs = fake.calls().filter((c) => c[0] === 'run');
    expect(runs.map((c) => values(c, '--network')[0])).toEqual(['none', 'bridge']);
    expect(values(runs[1] ?? [], '--mount')).toContain(`type=bind,source=${source},target=/workspace/source,readonly`);
    expect(Object.keys(fake.containers())).toEqual([containerName('t1', owner)]);
  });

  it('sets the proxy for the egress network and checks that network is internal', async () => {
    const ex = executor({ egress: { network: 'folio-egress', proxyUrl: 'http://proxy:3128' } });
    const result = await ex.run(['/bin/sh', '-c', 'echo "$HTTPS_PROXY"'], run('t1', { network: { allow: ['pypi.org'] } }));
    expect(result.output.trim()).toBe('http://proxy:3128');
    expect(fake.calls().some((c) => c[0] === 'network' && c.includes('{{.Internal}}') && c.includes('folio-egress'))).toBe(true);
    expect(values(fake.calls().find((c) => c[0] === 'run') ?? [], '--network')).toEqual(['folio-egress']);
  });

  it('removes containers on release and close', async () => {
    const ex = executor();
    await ex.run(['true'], run('t1'));
    await ex.run(['true'], run('t2'));
    await ex.release('t1');
    expect(Object.keys(fake.containers())).toEqual([containerName('t2', owner)]);
    await ex.close();
    expect(fake.containers()).toEqual({});
  });

  it('removes a container once it has been idle long enough', async () => {
    const ex = executor({ idleMs: 50 });
    await ex.run(['true'], run('t1'));
    for (let i = 0; i < 100 && Object.keys(fake.containers()).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(fake.containers()).toEqual({});
  });

  it('removes orphans of dead Folio processes on this host, and nobody else\'s', async () => {
    const host = os.hostname();
    fake.addContainer('folio-task-dead', `${host}:2147483646`);
    fake.addContainer('folio-task-alive', `${host}:${process.ppid}`);
    fake.addContainer('folio-task-elsewhere', 'another-host:1');
    const ex = executor();
    await ex.run(['true'], run('t1'));
    const left = Object.keys(fake.containers()).sort();
    expect(left).toEqual(['folio-task-alive', 'folio-task-elsewhere', containerName('t1', owner)].sort());
    // The live ones are pretend: forget them so later tests start clean.
    fs.writeFileSync(path.join(dir, 'state', 'containers.json'), '{}');
  });

  it('never pulls a missing image, and says how to get it', async () => {
    const ex = executor({ image: 'missing:image' });
    await expect(ex.run(['true'], run('t1'))).rejects.toThrow(/missing:image is not on this machine.*build-image\.sh/u);
    expect(fake.calls().some((c) => c[0] === 'pull')).toBe(false);
    expect(values(fake.calls().find((c) => c[0] === 'run') ?? [], '--pull')).toEqual(['never']);
  });

  it('runs the calls of one task one after another', async () => {
    const ex = executor();
    const log = path.join(root, 'order.txt');
    await Promise.all([
      ex.run(['/bin/sh', '-c', `echo a1 >> ${log}; sleep 0.3; echo a2 >> ${log}`], run('t1')),
      ex.run(['/bin/sh', '-c', `echo b1 >> ${log}; echo b2 >> ${log}`], run('t1')),
    ]);
    expect(fs.readFileSync(log, 'utf8')).toBe('a1\na2\nb1\nb2\n');
    expect(commands().filter((c) => c === 'run')).toHaveLength(1);
  });
});

// The same behaviour suite as bubblewrap, against the fake: our side of exec, timeouts, cancel and
// cleanup is real; isolation is not (the fake runs programs on this machine).
const fakeDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-fake-contract-')));
const contractFake = installFakeRuntime(fakeDir);
executorContract({
  name: 'container (fake runtime)',
  skip: null,
  isolationSkip: 'the fake runtime runs programs on this machine, unisolated',
  make: () => new ContainerExecutor({ runtime: contractFake.runtime, clientEnv: contractFake.clientEnv }),
  node: 'node',
  workspace: WORKSPACE,
});
afterAll(() => fs.rmSync(fakeDir, { recursive: true, force: true }));

// And against a real engine (podman in CI), one container for the whole suite: the same contract,
// isolation included, then what only a real engine shows.
const engine = realContainerEngine();
executorContract({
  name: `container (${engine.runtime ? path.basename(engine.runtime) : 'no engine'})`,
  skip: engine.skip,
  isolationSkip: null,
  make: () => new ContainerExecutor(engine.options),
  node: 'node',
  workspace: WORKSPACE,
  more: ({ executor, root, options }) => {
    const sh = (script: string): string[] => ['/bin/sh', '-c', script];

    it('runs every call by exec in one container per task, as an unprivileged, limited, neutral machine', async () => {
      const first = await executor().run(sh('cat /proc/sys/kernel/hostname; grep CapEff /proc/self/status; touch /usr/x 2>&1; touch /workspace/ok && echo wrote'), options());
      expect(first.output).toContain(`${CONTAINER_HOSTNAME}\n`);
      expect(first.output).toMatch(/CapEff:\s+0+\n/u);
      expect(first.output).toMatch(/Read-only file system/u);
      expect(first.output).toContain('wrote');
      expect(fs.existsSync(path.join(root(), 'ok'))).toBe(true);
      const [container] = taskContainers(engine, 'task-a');
      // The limits, as the kernel holds them (cgroup v1 or v2, whichever the host has).
      const limits = await executor().run(sh('cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/pids.max /sys/fs/cgroup/pids/pids.max 2>/dev/null'), options());
      expect(limits.output).toContain(String(1024 ** 3));
      expect(limits.output).toContain(String(DEFAULT_LIMITS.pids));
      expect(taskContainers(engine, 'task-a')).toEqual([container]);
    });

    it('shows the program neither the host path of the task folder nor the container in what comes back', async () => {
      const result = await executor().run(sh(`cat /proc/self/mountinfo /proc/self/cgroup /etc/hosts; echo "${root()}"; pwd`), options());
      const [container] = taskContainers(engine, 'task-a');
      expect(container).toBeDefined();
      expect(result.output).toContain('/workspace');
      expect(result.output).not.toContain(root());
      expect(result.output).not.toContain(container?.id.slice(0, 12));
      expect(result.output).not.toContain(container?.name);
    });

    it('runs Python with numpy, pandas and matplotlib, writing a figure into the task folder', async () => {
      const code = "import numpy, pandas, matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt; plt.plot(numpy.arange(3)); plt.savefig('fig.png'); print(pandas.__version__)";
      const result = await executor().run(['python3', '-c', code], options({ env: { ...options().env, MPLCONFIGDIR: path.join(root(), '.mpl') } }));
      expect(result.exitCode).toBe(0);
      expect(fs.readFileSync(path.join(root(), 'fig.png')).subarray(1, 4).toString()).toBe('PNG');
    });

    it('removes the container on release, and a container left idle', async () => {
      await executor().release('task-a');
      expect(taskContainers(engine, 'task-a')).toEqual([]);
      const idle = new ContainerExecutor({ ...engine.options, idleMs: 100 });
      try {
        await idle.run(['true'], options({ taskId: 'task-idle' }));
        expect(taskContainers(engine, 'task-idle')).toHaveLength(1);
        for (let i = 0; i < 100 && taskContainers(engine, 'task-idle').length > 0; i++) await new Promise((r) => setTimeout(r, 100));
        expect(taskContainers(engine, 'task-idle')).toEqual([]);
      } finally {
        await idle.close();
      }
    });
  },
});
