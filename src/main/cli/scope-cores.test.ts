import { describe, expect, it } from 'vitest';
import { ScopeCores, type ScopeCore } from './scope-cores';

function fakeCore(live = false): ScopeCore & { closed: number; live: boolean } {
  const core = {
    closed: 0,
    live,
    runs: { hasLiveRuns: () => core.live },
    close: () => {
      core.closed++;
      return Promise.resolve();
    },
  };
  return core;
}

describe('scope cores', () => {
  it('opens a core once per key and closes it after idleMs without requests, unless a run is live', async () => {
    let now = 0;
    const cores = new ScopeCores<ReturnType<typeof fakeCore>>(1000, () => now);
    let opens = 0;
    const open = (live = false) => () => {
      opens++;
      return Promise.resolve(fakeCore(live));
    };
    const a = await cores.get('acme/alice', open());
    expect(await cores.get('acme/alice', open())).toBe(a);
    const b = await cores.get('acme/bob', open(true));
    expect(opens).toBe(2);
    expect(cores.opened.size).toBe(2);

    now = 999;
    expect(await cores.sweep()).toBe(0);
    now = 1500;
    await cores.get('acme/alice', open()); // a request keeps alice's core
    now = 2100;
    expect(await cores.sweep()).toBe(0); // alice used at 1500; bob has a live run
    expect(a.closed + b.closed).toBe(0);
    b.live = false;
    expect(await cores.sweep()).toBe(1);
    expect(b.closed).toBe(1);
    now = 2600;
    expect(await cores.sweep()).toBe(1);
    expect(a.closed).toBe(1);
    expect(cores.opened.size).toBe(0);
    // The next request opens a fresh core.
    expect(await cores.get('acme/alice', open())).not.toBe(a);
    expect(opens).toBe(3);
  });

  it('forgets a core whose opening failed, so the next request tries again', async () => {
    const cores = new ScopeCores<ReturnType<typeof fakeCore>>(1000);
    await expect(cores.get('k', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    const core = await cores.get('k', () => Promise.resolve(fakeCore()));
    await cores.closeAll();
    expect(core.closed).toBe(1);
  });
});
