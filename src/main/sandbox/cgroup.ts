// One cgroup per sandboxed run, where Folio may make one (as root, or with a delegated subtree): a
// process count and a memory total for the program and everything it starts. rlimits cannot do
// either for root (RLIMIT_NPROC never applies to it) nor across processes (RLIMIT_AS is per process).
// Both cgroup versions are handled: v1 (a `pids` and a `memory` hierarchy, as on hybrid hosts) and
// v2 (one unified tree, when the controllers are enabled for Folio's subtree). The program joins
// before it starts (`joinPrefix`), so nothing it forks is ever outside.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LimitKind, SandboxLimits } from './limits';

const CGROUP_ROOT = '/sys/fs/cgroup';

interface Controllers {
  /** The folders new run cgroups are made in, one per hierarchy that has a controller we use. */
  pids: string | null;
  memory: string | null;
  /** v2: both controllers live in one folder. */
  unified: boolean;
}

let probed: Controllers | null | undefined;

function ownPaths(): Map<string, string> {
  const paths = new Map<string, string>();
  let text = '';
  try {
    text = fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return paths;
  }
  for (const line of text.split('\n')) {
    const [, controllers, rel] = /^\d+:([^:]*):(.*)$/u.exec(line) ?? [];
    if (controllers === undefined || rel === undefined) continue;
    for (const c of controllers === '' ? ['unified'] : controllers.split(',')) paths.set(c, rel);
  }
  return paths;
}

/** Whether a run cgroup can be made and limited under `parent` (made and removed once, to see). */
function usable(parent: string, limitFile: string): boolean {
  const probe = path.join(parent, `folio-probe-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  try {
    fs.mkdirSync(probe);
  } catch {
    return false;
  }
  try {
    fs.writeFileSync(path.join(probe, limitFile), '64');
    return true;
  } catch {
    return false;
  } finally {
    try {
      fs.rmdirSync(probe);
    } catch {
      // Left for the next start's sweep; an empty cgroup costs nothing.
    }
  }
}

function probe(): Controllers | null {
  if (process.platform !== 'linux' || process.env.FOLIO_CGROUPS === '0') return null;
  const own = ownPaths();
  const v1 = (name: string, limitFile: string): string | null => {
    const rel = own.get(name);
    if (rel === undefined) return null;
    const parent = path.join(CGROUP_ROOT, name, rel);
    return usable(parent, limitFile) ? parent : null;
  };
  const pids = v1('pids', 'pids.max');
  const memory = v1('memory', 'memory.limit_in_bytes');
  if (pids || memory) return { pids, memory, unified: false };
  const rel = own.get('unified');
  if (rel !== undefined) {
    // Pure v2 mounts the tree at /sys/fs/cgroup; hybrid hosts at /sys/fs/cgroup/unified.
    const base = fs.existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers')) ? CGROUP_ROOT : path.join(CGROUP_ROOT, 'unified');
    const parent = path.join(base, rel);
    if (usable(parent, 'pids.max')) return { pids: parent, memory: usable(parent, 'memory.max') ? parent : null, unified: true };
  }
  return null;
}

/** Which limits cgroups enforce here, checked once per process. */
export function cgroupSupport(): { processes: boolean; memory: boolean } {
  if (probed === undefined) probed = probe();
  return { processes: Boolean(probed?.pids), memory: Boolean(probed?.memory) };
}

/** Forgets the check (tests flip FOLIO_CGROUPS). */
export function resetCgroupSupport(): void {
  probed = undefined;
}

export interface RunCgroup {
  /** `sh -c` prefix that moves the starting shell into the cgroup(s), then execs the program. */
  joinPrefix(): string[];
  /** Which cgroup limits the run ran into. */
  hits(): LimitKind[];
  /** Removes the cgroup(s); the run's processes are gone by then (its PID namespace died with it). */
  remove(): void;
}

function write(dir: string, file: string, value: string): boolean {
  try {
    fs.writeFileSync(path.join(dir, file), value);
    return true;
  } catch {
    return false;
  }
}

function read(dir: string, file: string): string {
  try {
    return fs.readFileSync(path.join(dir, file), 'utf8');
  } catch {
    return '';
  }
}

const counter = (text: string, key: string): number => Number(new RegExp(`^${key} (\\d+)$`, 'mu').exec(text)?.[1] ?? 0);

/** A fresh cgroup with the run's limits, or null where cgroups cannot be used. */
let swept = false;

export function createRunCgroup(limits: SandboxLimits): RunCgroup | null {
  cgroupSupport();
  if (!swept) {
    swept = true;
    sweepRunCgroups();
  }
  const controllers = probed;
  if (!controllers) return null;
  const name = `folio-run-${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  const dirs: string[] = [];
  let pidsDir: string | null = null;
  let memoryDir: string | null = null;
  const make = (parent: string): string | null => {
    const dir = path.join(parent, name);
    try {
      fs.mkdirSync(dir);
      dirs.push(dir);
      return dir;
    } catch {
      return null;
    }
  };
  if (controllers.pids) {
    pidsDir = make(controllers.pids);
    if (pidsDir && !write(pidsDir, 'pids.max', String(limits.processes))) pidsDir = null;
  }
  if (controllers.memory) {
    memoryDir = controllers.unified && pidsDir ? pidsDir : make(controllers.memory);
    if (memoryDir) {
      const ok = controllers.unified
        ? write(memoryDir, 'memory.max', String(limits.memoryBytes)) && (write(memoryDir, 'memory.swap.max', '0') || true)
        : write(memoryDir, 'memory.limit_in_bytes', String(limits.memoryBytes)) &&
          // Without a swap bound a hog pages out instead of stopping; the file exists only with swap accounting.
          (!fs.existsSync(path.join(memoryDir, 'memory.memsw.limit_in_bytes')) || write(memoryDir, 'memory.memsw.limit_in_bytes', String(limits.memoryBytes)));
      if (!ok) memoryDir = null;
    }
  }
  const joined = [...new Set([pidsDir, memoryDir].filter((d): d is string => d !== null))];
  const cleanup = (): void => {
    for (const dir of [...dirs].reverse()) {
      try {
        fs.rmdirSync(dir);
      } catch {
        // EBUSY: a process is still leaving; the start-up sweep removes it.
      }
    }
  };
  if (joined.length === 0) {
    cleanup();
    return null;
  }
  return {
    joinPrefix: () => [
      '/bin/sh',
      '-c',
      'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"',
      'folio-cgroup',
      ...joined.map((d) => path.join(d, 'cgroup.procs')),
      '--',
    ],
    hits() {
      const hits: LimitKind[] = [];
      if (pidsDir && counter(read(pidsDir, 'pids.events'), 'max') > 0) hits.push('processes');
      if (memoryDir) {
        const oom = controllers.unified ? counter(read(memoryDir, 'memory.events'), 'oom_kill') : counter(read(memoryDir, 'memory.oom_control'), 'oom_kill');
        if (oom > 0) hits.push('memory');
      }
      return hits;
    },
    remove: cleanup,
  };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes run cgroups a killed Folio left behind: only those named by a process that is gone. */
export function sweepRunCgroups(): void {
  cgroupSupport();
  for (const parent of new Set([probed?.pids, probed?.memory])) {
    if (!parent) continue;
    let names: string[] = [];
    try {
      names = fs.readdirSync(parent).filter((n) => {
        const pid = Number(/^folio-(?:run|probe)-(\d+)-/u.exec(n)?.[1] ?? 0);
        return pid > 0 && !alive(pid);
      });
    } catch {
      continue;
    }
    for (const n of names) {
      try {
        fs.rmdirSync(path.join(parent, n));
      } catch {
        // Still in use (another Folio) or already gone.
      }
    }
  }
}
