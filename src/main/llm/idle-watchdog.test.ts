import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatchdog } from './openai-chat-model';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('IdleWatchdog', () => {
  it('fires when one wait lasts the timeout', () => {
    const onIdle = vi.fn();
    const dog = new IdleWatchdog(100, onIdle);
    dog.waiting();
    vi.advanceTimersByTime(99);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts each wait from its own start, and not the time the consumer was busy', () => {
    const onIdle = vi.fn();
    const dog = new IdleWatchdog(100, onIdle);
    for (let i = 0; i < 50; i++) {
      dog.waiting();
      vi.advanceTimersByTime(60);
      dog.pause();
      vi.advanceTimersByTime(200);
    }
    expect(onIdle).not.toHaveBeenCalled();
    dog.waiting();
    vi.advanceTimersByTime(60);
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(40);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('never fires once stopped, and keeps at most one timer', () => {
    const onIdle = vi.fn();
    const dog = new IdleWatchdog(100, onIdle);
    for (let i = 0; i < 1000; i++) {
      dog.waiting();
      dog.pause();
    }
    expect(vi.getTimerCount()).toBe(1);
    dog.waiting();
    dog.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
