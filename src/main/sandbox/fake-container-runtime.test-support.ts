// A stand-in for the docker CLI, so the container executor's side (what it asks the runtime, when,
// and what it does with the answers) is tested where no container engine runs. It records every argv,
// keeps its containers in a state file (with their mounts: an exec'd program's container paths are
// mapped back to the host folders they stand for), and runs `exec`'d programs on this machine, unisolated, in a
// process group of their own that outlives a killed client, as a real `docker exec` does: only the
// executor's `kill -KILL -1` inside the container stops them.
import fs from 'node:fs';
import path from 'node:path';

const SCRIPT = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const state = process.env.FAKE_RUNTIME_STATE;
const argv = process.argv.slice(2);
fs.appendFileSync(path.join(state, 'log.jsonl'), JSON.stringify(argv) + '\n');
// One file per container: two clients at once (a close removes every task's container in parallel)
// each change only their own, so neither can write back one the other has just removed.
const containersDir = path.join(state, 'containers');
fs.mkdirSync(containersDir, { recursive: true });
const containerFile = (name) => path.join(containersDir, name + '.json');
const load = () => Object.fromEntries(fs.readdirSync(containersDir).filter((f) => f.endsWith('.json')).map((f) => [f.slice(0, -5), JSON.parse(fs.readFileSync(path.join(containersDir, f), 'utf8'))]));
const exists = (name) => fs.existsSync(containerFile(name));
// Process groups live in a file per container, appended to: exec never rewrites a container's file.
const pgidsFile = (name) => path.join(state, 'pgids-' + name);
const killAll = (name) => {
  const f = pgidsFile(name);
  const pgids = fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map(Number) : [];
  for (const pgid of pgids) { try { process.kill(-pgid, 'SIGKILL'); } catch {} }
  fs.rmSync(f, { force: true });
};
const fail = (code, message) => { process.stderr.write(message + '\n'); process.exit(code); };
const [command, ...rest] = argv;

if (command === 'info') {
  if (fs.existsSync(path.join(state, 'down'))) fail(1, 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?');
  process.exit(0);
}
if (command === 'network') { process.stdout.write('true\n'); process.exit(0); }
if (command === 'ps') {
  for (const [name, c] of Object.entries(load())) process.stdout.write(name + '\tfolio.owner=' + c.owner + ',folio.task=t\n');
  process.exit(0);
}
if (command === 'run') {
  const value = (flag) => rest[rest.indexOf(flag) + 1];
  const labels = rest.flatMap((a, i) => (rest[i - 1] === '--label' ? [a] : []));
  const owner = (labels.find((l) => l.startsWith('folio.owner=')) || '').slice('folio.owner='.length);
  const image = rest[rest.length - 2];
  if (image === 'missing:image') fail(125, 'Unable to find image \'missing:image\' locally\ndocker: Error response from daemon: pull access denied');
  const name = value('--name');
  const mounts = rest.flatMap((a, i) => (rest[i - 1] === '--mount' ? [Object.fromEntries(a.split(',').map((kv) => kv.split('=')))] : [])).map((m) => [m.target, m.source]);
  try {
    fs.writeFileSync(containerFile(name), JSON.stringify({ owner, mounts }), { flag: 'wx' });
  } catch {
    fail(125, 'Conflict. The container name "/' + name + '" is already in use');
  }
  process.stdout.write('f00d' + name + '\n');
  process.exit(0);
}
if (command === 'rm') {
  const name = rest[rest.length - 1];
  killAll(name);
  fs.rmSync(containerFile(name), { force: true });
  process.exit(0);
}
if (command === 'exec') {
  let i = 0;
  let cwd = process.cwd();
  const env = {};
  for (; i < rest.length; i++) {
    if (rest[i] === '--workdir') cwd = rest[++i];
    else if (rest[i] === '--env') { const kv = rest[++i]; env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1); }
    else break;
  }
  const name = rest[i];
  if (!exists(name)) fail(1, 'Error response from daemon: No such container: ' + name);
  const mounts = (JSON.parse(fs.readFileSync(containerFile(name), 'utf8')).mounts || []).sort((a, b) => b[0].length - a[0].length);
  const toHost = (text) => mounts.reduce((out, [target, source]) => out.split(target).join(source), text);
  const program = rest.slice(i + 1).map(toHost);
  cwd = toHost(cwd);
  for (const k of Object.keys(env)) env[k] = toHost(env[k]);
  if (program[0] === 'mkdir') process.exit(0);
  if (program.join(' ').includes('kill -KILL -1')) {
    killAll(name);
    process.exit(0);
  }
  const child = spawn(program[0], program.slice(1), { cwd, env, detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
  fs.appendFileSync(pgidsFile(name), child.pid + '\n');
  child.on('error', (e) => fail(126, e.message));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 137 : 1)));
  return;
}
fail(2, 'fake runtime: unknown command ' + command);
`;

export interface FakeRuntime {
  /** The executable to give the executor as its runtime. */
  runtime: string;
  /** Environment for the runtime client (where the fake keeps its state). */
  clientEnv: NodeJS.ProcessEnv;
  /** Every argv the fake was called with, in order. */
  calls(): string[][];
  /** Forgets the calls so far. */
  clearCalls(): void;
  /** Names and owners of the containers the fake holds. */
  containers(): Record<string, { owner: string }>;
  /** Makes `info` fail as docker does when no daemon runs. */
  stopDaemon(): void;
  /** Pretends a container was left by another process. */
  addContainer(name: string, owner: string): void;
}

export function installFakeRuntime(dir: string): FakeRuntime {
  const bin = path.join(dir, 'bin');
  const state = path.join(dir, 'state');
  fs.mkdirSync(bin, { recursive: true });
  fs.mkdirSync(state, { recursive: true });
  const runtime = path.join(bin, 'docker');
  fs.writeFileSync(runtime, `#!${process.execPath}\n${SCRIPT}`, { mode: 0o755 });
  const log = path.join(state, 'log.jsonl');
  const containersDir = path.join(state, 'containers');
  fs.mkdirSync(containersDir, { recursive: true });
  const containers = (): Record<string, { owner: string }> =>
    Object.fromEntries(
      fs
        .readdirSync(containersDir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => [f.slice(0, -'.json'.length), JSON.parse(fs.readFileSync(path.join(containersDir, f), 'utf8')) as { owner: string }]),
    );
  return {
    runtime,
    clientEnv: { ...process.env, FAKE_RUNTIME_STATE: state },
    calls: () =>
      fs.existsSync(log)
        ? fs
            .readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as string[])
        : [],
    clearCalls: () => fs.rmSync(log, { force: true }),
    containers,
    stopDaemon: () => fs.writeFileSync(path.join(state, 'down'), ''),
    addContainer: (name, owner) => fs.writeFileSync(path.join(containersDir, `${name}.json`), JSON.stringify({ owner })),
  };
}
