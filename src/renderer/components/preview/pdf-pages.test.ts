import { describe, expect, it } from 'vitest';
import { clampPage, pageForKey, pdfColumns } from './pdf-pages';

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

describe('the page list of an exported or source PDF', () => {
  it('keeps one page to a row in the side panel, where two would each be too narrow to read', () => {
    // The panel at its default and at its drawer width: an exported .docx's pages, one under the other.
    expect(pdfColumns(288, 3)).toBe(1);
    expect(pdfColumns(410, 3)).toBe(1);
    expect(pdfColumns(700, 3)).toBe(1);
    // Wide enough for two readable pages side by side.
    expect(pdfColumns(730, 3)).toBe(2);
    // One page is never split into columns.
    expect(pdfColumns(1200, 1)).toBe(1);
  });
});
