import { describe, expect, it } from 'vitest';
import { safeFileName } from './added-files';

describe('safeFileName', () => {
  it('keeps a long Chinese name under the file system limit, whole characters and extension kept', () => {
    // 150 CJK characters are 450 bytes: copying under that name failed with ENAMETOOLONG (a 500).
    const name = safeFileName(`${'报'.repeat(150)}.pdf`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(180);
    expect(name).toMatch(/^报+\.pdf$/);
    expect(safeFileName('x'.repeat(300))).toBe('x'.repeat(180));
    expect(safeFileName(`${'😀'.repeat(100)}.md`)).toMatch(/^(😀)+\.md$/u);
  });

  it('strips folders and control characters and refuses names with nothing left', () => {
    expect(safeFileName('../a/b\u0000c.txt')).toBe('b_c.txt');
    expect(safeFileName('研究报告 2024.pdf')).toBe('研究报告 2024.pdf');
    expect(() => safeFileName('...')).toThrow(/Unusable/);
  });
});
