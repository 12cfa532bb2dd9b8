import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from './thread-gc';

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('collectGarbage', () => {
  it('frees an object nothing refers to any more, at once', async () => {
    // Made in another turn: a WeakRef keeps its target alive until the turn that made it ends.
    const ref = await (async () => {
      await nextTurn();
      return new WeakRef({ bytes: new Array<number>(1_000_000).fill(1) });
    })();
    await nextTurn();
    expect(collectGarbage()).toBe(true);
    await nextTurn();
    expect(ref.deref()).toBeUndefined();
  });

  it('leaves contexts made afterwards without a gc global', () => {
    collectGarbage();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });
});
