// Every visible string goes through t(); this heuristic catches text typed straight into JSX.
import { describe, expect, it } from 'vitest';

// Tests write fixtures as JSX (a stand-in reply, an author's name): only components are scanned.
const sources = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx'], { query: '?raw', import: 'default', eager: true });

/** Text between a tag's `>` and the next `<` that starts with a letter, outside `{...}` expressions. */
function findJsxLiterals(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    // `=>` and comparisons are not tags; neutralise them before looking for `>text<`.
    .replace(/=>/g, '=_')
    .replace(/ >= | > /g, ' _ ');
  const found: string[] = [];
  for (const match of code.matchAll(/>\s*([A-Za-z][^<>{};=]*)</g)) found.push(match[1].trim());
  return found;
}

describe('JSX literal scan', () => {
  it('detects literal text, and accepts t() calls and symbols', () => {
    expect(findJsxLiterals('<button>Save</button>')).toEqual(['Save']);
    expect(findJsxLiterals('<p>\n  Hello there\n</p>')).toEqual(['Hello there']);
    expect(findJsxLiterals("<button>{t('common.save')}</button>")).toEqual([]);
    expect(findJsxLiterals('<span>✓</span>')).toEqual([]);
    expect(findJsxLiterals('const f = (a) => a.b < 3;')).toEqual([]);
  });

  it('finds the renderer sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(5);
  });

  it('no component writes UI text directly in JSX', () => {
    const offenders = Object.entries(sources).flatMap(([file, text]) => findJsxLiterals(text).map((literal) => `${file}: ${literal}`));
    expect(offenders).toEqual([]);
  });
});
