import { describe, expect, it } from 'vitest';
import { splitHighlights } from './highlights';

const marked = (snippet: string, ranges: [number, number][]) =>
  splitHighlights(snippet, ranges)
    .filter((p) => p.marked)
    .map((p) => p.text);

describe('splitHighlights', () => {
  it('marks the ranges and keeps every character once, in order', () => {
    const snippet = '基于检索增强生成的方法';
    const parts = splitHighlights(snippet, [[2, 6]]);
    expect(parts).toEqual([
      { text: '基于', marked: false },
      { text: '检索增强', marked: true },
      { text: '生成的方法', marked: false },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(snippet);
  });

  it('sorts, merges overlapping and touching ranges, and clamps out-of-bounds ones', () => {
    expect(marked('retrieval augmented generation', [[10, 19], [0, 9], [5, 12]])).toEqual(['retrieval augmented']);
    expect(marked('abcdef', [[4, 99], [-3, 1]])).toEqual(['a', 'ef']);
    expect(marked('abc', [[2, 2], [3, 1]])).toEqual([]);
  });

  it('gives the whole snippet unmarked without ranges, and one empty part for an empty snippet', () => {
    expect(splitHighlights('plain', [])).toEqual([{ text: 'plain', marked: false }]);
    expect(splitHighlights('', [[0, 3]])).toEqual([{ text: '', marked: false }]);
  });
});
