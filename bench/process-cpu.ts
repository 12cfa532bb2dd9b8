// CPU time of processes from /proc (Linux), for benches whose wall-clock rates swing with the load of
// a shared machine: the CPU a piece of work costs moves far less than how long it waits for a core.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux Folio runs on). */
const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  /** utime + stime, in ms (all of the process's threads). */
  cpuMs: number;
}

function stat(pid: number): Stat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state(3) ppid(4) … utime(14) stime(15), so index = field - 3.
  return { ppid: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND };
}

/** CPU ms a process has used so far; 0 when it is gone (or /proc is absent). */
export function processCpuMs(pid: number): number {
  return stat(pid)?.cpuMs ?? 0;
}

/**
 * CPU ms the children of `parent` (a PostgreSQL postmaster's backends and helpers) have used so far,
 * by child pid: a backend that exits between two readings drops out, so compare per pid.
 */
export function childrenCpuMs(parent: number): Map<number, number> {
  const found = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (s?.ppid === parent) found.set(pid, s.cpuMs);
  }
  return found;
}

/** CPU ms the children used between two readings (those present in both, and new ones in full). */
export function childrenCpuSince(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}
