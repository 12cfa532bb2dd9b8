import { describe, expect, it } from 'vitest';
import { rowsOfReplacement, rowsOfUnifiedDiff } from './readable-diff';

describe('readable diffs', () => {
  it('reads the edit tool’s diff as numbered before and after lines, without its headers', () => {
    const diff = ['--- a/work/notes.md', '+++ b/work/notes.md', '@@ -2,3 +2,4 @@', ' intro', '-old line', '+new line', '+second "quoted" line', ' outro'].join('\n');
    expect(rowsOfUnifiedDiff(diff)).toEqual([
      { kind: 'context', text: 'intro', oldLine: 2, newLine: 2 },
      { kind: 'remove', text: 'old line', oldLine: 3, newLine: null },
      { kind: 'add', text: 'new line', oldLine: null, newLine: 3 },
      { kind: 'add', text: 'second "quoted" line', oldLine: null, newLine: 4 },
      { kind: 'context', text: 'outro', oldLine: 4, newLine: 5 },
    ]);
  });

  it('marks the gap between two hunks', () => {
    const rows = rowsOfUnifiedDiff('@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d') ?? [];
    expect(rows.map((r) => r.kind)).toEqual(['remove', 'add', 'gap', 'remove', 'add']);
    expect(rows[3].oldLine).toBe(9);
  });

  it('is no diff when the text is a reason the edit cannot apply', () => {
    expect(rowsOfUnifiedDiff('edit work/a.md: old_str not found in work/a.md.')).toBeNull();
  });

  it('shows a replacement from the call’s own text, line by line', () => {
    expect(rowsOfReplacement('a\nb\n', 'c').map((r) => `${r.kind}:${r.text}`)).toEqual(['remove:a', 'remove:b', 'add:c']);
  });
});
