// public/start-after-first-frame.js adds the app's module entry once the page has drawn its first
// frame (the first open's HTML holds the task list; the modules' compile and evaluation would run
// before that frame). Run here with a hand-driven frame and timer queue.
import { describe, expect, it } from 'vitest';
import starter from './public/start-after-first-frame.js?raw';

function page(visibilityState: 'visible' | 'hidden') {
  const added: { type: string; src: string; crossOrigin: string | null }[] = [];
  const frames: (() => void)[] = [];
  const timers: { ms: number; run: () => void }[] = [];
  const document = {
    visibilityState,
    currentScript: { getAttribute: (name: string) => (name === 'data-entry' ? './assets/index-abc.js' : null) },
    createElement: () => ({ type: '', src: '', crossOrigin: null as string | null }),
    head: { appendChild: (node: (typeof added)[number]) => added.push({ ...node }) },
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the text is the repository's own file
  const script = new Function('document', 'requestAnimationFrame', 'setTimeout', starter) as (...args: unknown[]) => void;
  script(document, (run: () => void) => frames.push(run), (run: () => void, ms: number) => timers.push({ ms, run }));
  /** Runs the timers due by `upTo` ms, in order; later ones stay queued. */
  const runTimers = (upTo: number) => {
    const due = timers.filter((t) => t.ms <= upTo).sort((a, b) => a.ms - b.ms);
    timers.splice(0, timers.length, ...timers.filter((t) => t.ms > upTo));
    for (const timer of due) timer.run();
  };
  return { added, frame: () => frames.splice(0).forEach((run) => run()), runTimers };
}

describe('the app starts after the first frame', () => {
  it('adds the module entry after the frame is drawn, not before, and once', () => {
    const p = page('visible');
    expect(p.added).toEqual([]);
    // The frame's rAF runs before it is drawn: still nothing.
    p.frame();
    expect(p.added).toEqual([]);
    // The task after it, then the fallback timer: one entry.
    p.runTimers(0);
    expect(p.added).toEqual([{ type: 'module', src: './assets/index-abc.js', crossOrigin: '' }]);
    p.runTimers(1000);
    expect(p.added).toHaveLength(1);
  });

  it('starts a hidden page at once, and a page that draws no frame after a second', () => {
    expect(page('hidden').added).toHaveLength(1);
    const p = page('visible');
    p.runTimers(999);
    expect(p.added).toEqual([]);
    p.runTimers(1000);
    expect(p.added).toHaveLength(1);
  });
});
