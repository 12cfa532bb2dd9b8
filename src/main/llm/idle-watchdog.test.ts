import { connect, createServer, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatchdog } from './openai-chat-model';

/** The watchdog decides after the loop's pending I/O: one turn of it. */
const ioTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('IdleWatchdog', () => {
  it('fires when one wait lasts the timeout', async () => {
    const onIdle = vi.fn();
    const dog = new IdleWatchdog(100, onIdle);
    dog.waiting();
    vi.advanceTimersByTime(99);
    await ioTurn();
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    await ioTurn();
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts each wait from its own start, and not the time the consumer was busy', async () => {
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
    await ioTurn();
    expect(onIdle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(40);
    await ioTurn();
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('never fires once stopped, and keeps at most one timer', async () => {
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
    await ioTurn();
    expect(onIdle).not.toHaveBeenCalled();
  });
});

describe('IdleWatchdog on a held-up process', () => {
  beforeEach(() => {
    vi.useRealTimers();
  });

  it('does not call the provider silent when its bytes arrived while the process itself could not run', async () => {
    const onIdle = vi.fn();
    const dog = new IdleWatchdog(50, onIdle);
    let client: Socket | undefined;
    const received = new Promise<void>((resolve, reject) => {
      const server = createServer((socket) => {
        // The provider answers at once, then this process is held up for three timeouts (another
        // program had the CPU): the answer waits in the socket, unread, until the loop runs again.
        socket.end('data: {}\n\n');
        dog.waiting();
        const until = performance.now() + 150;
        while (performance.now() < until) {
          // held up
        }
        server.close();
      }).listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        client = connect(port, '127.0.0.1');
        client.on('data', () => {
          dog.pause();
          resolve();
        });
        client.on('error', reject);
      });
    });
    await received;
    await new Promise((resolve) => setTimeout(resolve, 100));
    dog.stop();
    client?.destroy();
    expect(onIdle).not.toHaveBeenCalled();
  });
});
