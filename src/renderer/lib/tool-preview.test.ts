import { describe, expect, it } from 'vitest';
import { collapsedPreview, COLLAPSED_ERROR, COLLAPSED_OUTPUT } from './tool-preview';

const lines = (n: number, width = 10) => Array.from({ length: n }, (_, i) => `${i + 1}`.padEnd(width, '.')).join('\n');

describe('collapsedPreview', () => {
  it('shows short output whole, with nothing to expand', () => {
    expect(collapsedPreview('Rendered artifacts/deck.pptx', COLLAPSED_OUTPUT)).toBeNull();
    expect(collapsedPreview(lines(6), COLLAPSED_OUTPUT)).toBeNull();
    expect(collapsedPreview(`${lines(6)}\n`, COLLAPSED_OUTPUT)).toBeNull();
    expect(collapsedPreview('', COLLAPSED_OUTPUT)).toBeNull();
  });

  it('cuts at the sixth line when the lines are short', () => {
    const preview = collapsedPreview(lines(40), COLLAPSED_OUTPUT);
    expect(preview).toBe(lines(6));
  });

  it('cuts at 400 columns when the lines are long', () => {
    const text = 'x'.repeat(5000);
    expect(collapsedPreview(text, COLLAPSED_OUTPUT)).toBe('x'.repeat(400));
    expect(collapsedPreview(lines(3, 300), COLLAPSED_OUTPUT)).toHaveLength(400);
  });

  it('counts a CJK character as two columns, so Chinese output shows as many lines as English', () => {
    expect(collapsedPreview('长对话'.repeat(200), COLLAPSED_OUTPUT)).toBe('长对话'.repeat(200).slice(0, 200));
    expect(collapsedPreview(`${'a'.repeat(398)}长对话`, COLLAPSED_OUTPUT)).toBe(`${'a'.repeat(398)}长`);
  });

  it('never splits a surrogate pair', () => {
    const emoji = `${'a'.repeat(399)}😀${'b'.repeat(10)}`;
    expect(collapsedPreview(emoji, COLLAPSED_OUTPUT)).toBe(`${'a'.repeat(399)}😀`);
    const wide = `${'a'.repeat(399)}\u{20000}${'b'.repeat(10)}`;
    expect(collapsedPreview(wide, COLLAPSED_OUTPUT)).toBe('a'.repeat(399));
  });

  it('shows more of an error', () => {
    expect(collapsedPreview(lines(40), COLLAPSED_ERROR)).toBe(lines(12));
    expect(collapsedPreview(lines(10), COLLAPSED_ERROR)).toBeNull();
    expect(collapsedPreview(lines(10), COLLAPSED_OUTPUT)).toBe(lines(6));
  });

  it('drops blank lines at the cut', () => {
    expect(collapsedPreview(`a\n\n\n\n\n\n\n\nb`, COLLAPSED_OUTPUT)).toBe('a');
  });
});
