import { describe, expect, it } from 'vitest';
import { formatPageList, PageRangeError, pageOfEachLine, parsePageSpec, slicePages } from './pages';

describe('parsePageSpec', () => {
  it('accepts single pages, ranges and lists', () => {
    expect(parsePageSpec('3', 12)).toEqual([3]);
    expect(parsePageSpec('3-7', 12)).toEqual([3, 4, 5, 6, 7]);
    expect(parsePageSpec(' 9-10, 1,4 ,4', 12)).toEqual([1, 4, 9, 10]);
  });

  it('names the page count when out of range, and rejects nonsense', () => {
    expect(() => parsePageSpec('13', 12)).toThrow('pages "13" is out of range: the document has 12 pages.');
    expect(() => parsePageSpec('2', 1)).toThrow('the document has 1 page.');
    expect(() => parsePageSpec('0', 5)).toThrow(PageRangeError);
    expect(() => parsePageSpec('5-3', 5)).toThrow(/write the lower page first/u);
    expect(() => parsePageSpec('two', 5)).toThrow(/not a page list/u);
    expect(() => parsePageSpec('', 5)).toThrow(/not a page list/u);
  });
});

describe('page slicing', () => {
  const lines = ['# Title', '<!-- page 1 -->', 'one', '<!-- page 2 -->', 'two a', 'two b', '<!-- page 3 -->', 'three'];

  it('finds the page of each line from the nearest marker above it', () => {
    expect(pageOfEachLine(lines)).toEqual([null, 1, 1, 2, 2, 2, 3, 3]);
  });

  it('cuts out the wanted pages with their markers', () => {
    expect(slicePages(lines, [2, 3])).toEqual([
      { page: 2, start: 3, lines: ['<!-- page 2 -->', 'two a', 'two b'] },
      { page: 3, start: 6, lines: ['<!-- page 3 -->', 'three'] },
    ]);
  });

  it('formats page lists compactly', () => {
    expect(formatPageList([1, 2, 3, 5, 7, 8])).toBe('1-3,5,7-8');
  });
});
