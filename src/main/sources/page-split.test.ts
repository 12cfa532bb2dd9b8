import { describe, expect, it } from 'vitest';
import { chunkSizeFor, PageCollector, PageQueue } from './page-split';

describe('PageQueue', () => {
  it('hands out every page exactly once, in chunks, then nothing', () => {
    const queue = new PageQueue(23, 5);
    const ranges = [];
    for (let r = queue.take(); r; r = queue.take()) ranges.push(r);
    expect(ranges).toEqual([
      { from: 1, to: 5 },
      { from: 6, to: 10 },
      { from: 11, to: 15 },
      { from: 16, to: 20 },
      { from: 21, to: 23 },
    ]);
    expect(queue.take()).toBeNull();
    expect(new PageQueue(0).take()).toBeNull();
  });

  it('sizes chunks between 4 and 16 pages', () => {
    expect(chunkSizeFor(10)).toBe(4);
    expect(chunkSizeFor(300)).toBe(8);
    expect(chunkSizeFor(5000)).toBe(16);
  });
});

describe('PageCollector', () => {
  const page = (text: string) => ({ text, unreadable: false });

  it('puts pages arriving in any order back in page order, counting them', () => {
    const collector = new PageCollector(4);
    for (const n of [3, 1, 4]) expect(collector.add(n, page(`p${n}`))).toBe(true);
    expect(collector.done).toBe(3);
    expect(collector.complete).toBe(false);
    expect(() => collector.inOrder()).toThrow('page 2 of 4 was never extracted');
    collector.add(2, page('p2'));
    expect(collector.complete).toBe(true);
    expect(collector.inOrder().map((p) => p.text)).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  it('ignores a page twice or out of range', () => {
    const collector = new PageCollector(2);
    expect(collector.add(1, page('first'))).toBe(true);
    expect(collector.add(1, page('again'))).toBe(false);
    expect(collector.add(0, page('x'))).toBe(false);
    expect(collector.add(3, page('x'))).toBe(false);
    expect(collector.add(1.5, page('x'))).toBe(false);
    expect(collector.done).toBe(1);
  });
});
