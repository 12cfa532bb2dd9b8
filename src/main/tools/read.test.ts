import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTool } from './read';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';

let root: string;
beforeEach(() => {
  root = makeTempRoot();
});
afterEach(() => removeTemp(root));

const read = (args: { path: string; offset?: number; limit?: number }) => readTool.execute(args, contextFor(root));

describe('read', () => {
  it('returns numbered lines and the total', async () => {
    writeFiles(root, { 'notes.md': 'alpha\r\nbeta\ngamma\n' });
    const result = await read({ path: 'notes.md' });
    expect(result.content).toBe('     1\talpha\n     2\tbeta\n     3\tgamma\n\n(Showing lines 1-3 of 3; end of file.)');
  });

  it('pages with offset and limit and says how to read more', async () => {
    writeFiles(root, { 'long.txt': Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') });
    const result = await read({ path: 'long.txt', offset: 4, limit: 3 });
    expect(result.content).toContain('     4\tline 4\n     5\tline 5\n     6\tline 6');
    expect(result.content).not.toContain('line 7');
    expect(result.content).toContain('(Showing lines 4-6 of 10. To read more, call read with offset=7.)');
  });

  it('stops under the loop cap of 16,000 characters and says exactly where to continue', async () => {
    writeFiles(root, { 'big.txt': Array.from({ length: 2500 }, (_, i) => `row ${i + 1}`).join('\n') });
    const result = await read({ path: 'big.txt' });
    expect(result.content.length).toBeLessThan(16_000);
    const next = Number(/offset=(\d+)/.exec(result.content)?.[1]);
    expect(next).toBeGreaterThan(1000);
    expect(result.content).toContain(`row ${next - 1}\n`);
    expect(result.content).not.toContain(`row ${next}\n`);
    expect(result.content).toContain(`(Showing lines 1-${next - 1} of 2500.`);
    const rest = await read({ path: 'big.txt', offset: next });
    expect(rest.content.startsWith(`${String(next).padStart(6)}\trow ${next}\n`)).toBe(true);
  });

  it('cuts long lines at 2000 characters', async () => {
    writeFiles(root, { 'wide.txt': 'y'.repeat(5000) });
    const result = await read({ path: 'wide.txt' });
    expect(result.content).toContain(`${'y'.repeat(2000)}… [line cut at 2000 of 5000 chars]`);
    expect(result.content).not.toContain('y'.repeat(2001));
  });

  it('reads Chinese text', async () => {
    writeFiles(root, { 'source/报告.md': '研究背景\n' });
    expect((await read({ path: 'source/报告.md' })).content).toContain('     1\t研究背景');
  });

  it('refuses binary files, directories, missing files and offsets past the end', async () => {
    writeFiles(root, { 'a.pdf': new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0x01]), 'dir/x.txt': 'x', 'short.txt': 'one\n' });
    await expect(read({ path: 'a.pdf' })).rejects.toThrow(/binary file/);
    await expect(read({ path: 'dir' })).rejects.toThrow(/is a directory/);
    await expect(read({ path: 'missing.txt' })).rejects.toThrow(/File not found: missing.txt/);
    await expect(read({ path: 'short.txt', offset: 5 })).rejects.toThrow(/offset 5 is past the end of short.txt \(1 lines\)/);
    await expect(read({ path: '../etc/passwd' })).rejects.toThrow(/escapes/);
  });

  it('reports an empty file', async () => {
    writeFiles(root, { 'empty.txt': '' });
    expect((await read({ path: 'empty.txt' })).content).toBe('empty.txt is empty.');
  });
});
