// The machine's processes as /proc shows them, for tests that check what a kill left behind.
import fs from 'node:fs';

export interface ProcessEntry {
  ppid: number;
  pgrp: number;
  /** The arguments joined by spaces. */
  cmdline: string;
}

/** Each process's parent, process group and command line. */
export function processTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/u.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
      const [, ppid = '0', pgrp = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      table.set(Number(name), { ppid: Number(ppid), pgrp: Number(pgrp), cmdline });
    } catch {
      // Exited while read.
    }
  }
  return table;
}

/** The processes descended from `root`. */
export function descendants(table: Map<number, ProcessEntry>, root: number): number[] {
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [pid, entry] of table) {
      if (entry.ppid === parent) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

/** The processes whose command line is exactly `cmdline` (a test's uniquely numbered `sleep`). */
export function processesRunning(cmdline: string): number[] {
  return [...processTable()].filter(([, entry]) => entry.cmdline === cmdline).map(([pid]) => pid);
}

/** A `sleep` duration no other process runs: 30 s and a fraction unique to this test process and call. */
let serial = 0;
export function uniqueSleep(): string {
  serial += 1;
  return `30.${String(process.pid % 10_000).padStart(4, '0')}${String(serial).padStart(3, '0')}`;
}
