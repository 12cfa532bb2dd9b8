import { describe, expect, it } from 'vitest';
import { hasHidden, visibleSegments, visibleText } from './visible-text';

describe('visibleText', () => {
  it('shows a right-to-left override and the other bidi controls as escapes', () => {
    expect(visibleText('rm invoice\u202Efdp.exe')).toBe('rm invoice\\u202Efdp.exe');
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]) {
      const ch = String.fromCodePoint(code);
      expect(visibleText(`a${ch}b`)).toBe(`a\\u${code.toString(16).toUpperCase().padStart(4, '0')}b`);
    }
  });

  it('shows zero-width characters', () => {
    expect(visibleText('c\u200Bu\u200Cr\u200Dl\u2060 \uFEFFx')).toBe('c\\u200Bu\\u200Cr\\u200Dl\\u2060 \\uFEFFx');
  });

  it('shows ANSI escapes and other controls as control pictures, keeping newlines, tabs and CRLF', () => {
    expect(visibleText('\u001b[31mred\u001b[0m')).toBe('␛[31mred␛[0m');
    expect(visibleText('a\u0000b\u0007c\u007f')).toBe('a␀b␇c␡');
    expect(visibleText('line\r\nnext\tcol\n')).toBe('line\r\nnext\tcol\n');
    expect(visibleText('fake\roverwrite')).toBe('fake␍overwrite');
    expect(visibleText('csi\u009B31m')).toBe('csi\\u009B31m');
  });

  it('marks the escaped parts so the UI can style them apart', () => {
    expect(visibleSegments('ls \u202Eevil\u001b')).toEqual([
      { text: 'ls ', escaped: false },
      { text: '\\u202E', escaped: true },
      { text: 'evil', escaped: false },
      { text: '␛', escaped: true },
    ]);
    expect(visibleSegments('plain 中文 émoji 🎉')).toEqual([{ text: 'plain 中文 émoji 🎉', escaped: false }]);
    expect(visibleSegments('')).toEqual([]);
  });

  it('tells whether a text has anything hidden, every time it is asked', () => {
    expect(hasHidden('a\u202Eb')).toBe(true);
    expect(hasHidden('a\u202Eb')).toBe(true);
    expect(hasHidden('plain')).toBe(false);
    // Asking first must not change what is escaped next.
    expect(hasHidden('0123456789\u202E')).toBe(true);
    expect(visibleText('\u202Ea')).toBe('\\u202Ea');
  });
});
