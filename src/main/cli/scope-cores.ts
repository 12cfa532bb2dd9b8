// The team service's cores, one per (tenant, user), opened on first request and closed after a
// spell without requests when none of their runs is live, so a worker's memory follows its active
// users rather than every user it has ever served.

export interface ScopeCore {
  /** True while a run of this core is live here (it must not be closed under it). */
  runs: { hasLiveRuns(): boolean };
  close(): Promise<void>;
}

export class ScopeCores<C extends ScopeCore> {
  private readonly cores = new Map<string, { core: Promise<C>; usedAt: number }>();
  /** Cores whose opening finished, for the synchronous control path (cancel, decide). */
  readonly opened = new Set<C>();

  constructor(private readonly idleMs: number, private readonly now: () => number = Date.now) {}

  get(key: string, open: () => Promise<C>): Promise<C> {
    const entry = this.cores.get(key);
    if (entry) {
      entry.usedAt = this.now();
      return entry.core;
    }
    const core = open().then((c) => {
      this.opened.add(c);
      return c;
    });
    this.cores.set(key, { core, usedAt: this.now() });
    core.catch(() => this.cores.delete(key));
    return core;
  }

  /** Closes the cores unused for idleMs with no live run; resolves with how many were closed. */
  async sweep(): Promise<number> {
    let closed = 0;
    for (const [key, entry] of [...this.cores]) {
      if (this.now() - entry.usedAt < this.idleMs) continue;
      const core = await entry.core.catch(() => null);
      // A request may have come (and reset usedAt) while this one was awaited.
      if (!core || core.runs.hasLiveRuns() || this.now() - entry.usedAt < this.idleMs || this.cores.get(key) !== entry) continue;
      this.cores.delete(key);
      this.opened.delete(core);
      await core.close();
      closed++;
    }
    return closed;
  }

  async closeAll(): Promise<void> {
    const all = [...this.cores.values()];
    this.cores.clear();
    await Promise.all(all.map(async ({ core }) => (await core.catch(() => null))?.close()));
    this.opened.clear();
  }
}
