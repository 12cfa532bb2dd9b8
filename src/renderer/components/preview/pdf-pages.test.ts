import { describe, expect, it } from 'vitest';
import { clampPage, pageForKey } from './pdf-pages';

describe('the one-page PDF reader', () => {
  it('keeps a page inside the document', () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(3, 5)).toBe(3);
    expect(clampPage(1, 0)).toBe(1);
  });

  it('moves back and forth by the arrow and page keys, to the ends by Home and End, and stops there', () => {
    expect(pageForKey('ArrowLeft', 3, 5)).toBe(2);
    expect(pageForKey('PageUp', 3, 5)).toBe(2);
    expect(pageForKey('ArrowRight', 3, 5)).toBe(4);
    expect(pageForKey('PageDown', 3, 5)).toBe(4);
    expect(pageForKey('Home', 3, 5)).toBe(1);
    expect(pageForKey('End', 3, 5)).toBe(5);
    expect(pageForKey('ArrowLeft', 1, 5)).toBe(1);
    expect(pageForKey('ArrowRight', 5, 5)).toBe(5);
    expect(pageForKey('a', 3, 5)).toBeNull();
  });
});
