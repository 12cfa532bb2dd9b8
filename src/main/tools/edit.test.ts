import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editTool } from './edit';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';

let root: string;
beforeEach(() => {
  root = makeTempRoot();
});
afterEach(() => removeTemp(root));

const edit = (p: string, oldStr: string, newStr: string) => editTool.execute({ path: p, old_str: oldStr, new_str: newStr }, contextFor(root));
const assess = (p: string, oldStr: string, newStr: string) => editTool.assess?.({ path: p, old_str: oldStr, new_str: newStr }, contextFor(root));
const readBack = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');

const source = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', ''].join('\n');

describe('edit', () => {
  it('replaces a unique snippet', async () => {
    writeFiles(root, { 'a.txt': source });
    const result = await edit('a.txt', 'four\nfive', 'FOUR\nFIVE\nfive-and-a-half');
    expect(readBack('a.txt')).toBe(source.replace('four\nfive', 'FOUR\nFIVE\nfive-and-a-half'));
    expect(result.content).toBe('Edited a.txt: replaced 1 occurrence (now lines 4-6).');
    expect(result.touched).toEqual(['a.txt']);
  });

  it('does not interpret $ patterns in the replacement', async () => {
    writeFiles(root, { 'p.txt': 'price: X\n' });
    await edit('p.txt', 'X', "$& $' $1");
    expect(readBack('p.txt')).toBe("price: $& $' $1\n");
  });

  it('says when old_str is missing, with a whitespace hint', async () => {
    writeFiles(root, { 'a.txt': source });
    await expect(edit('a.txt', 'fourr', 'x')).rejects.toThrow(/^old_str not found in a.txt\. .*whitespace/);
  });

  it('says how many times old_str occurs when it is not unique', async () => {
    writeFiles(root, { 'b.txt': 'x = 1\ny = 1\nz = 1\n' });
    await expect(edit('b.txt', '= 1', '= 2')).rejects.toThrow('old_str occurs 3 times in b.txt; include more context so it matches exactly once.');
    expect(readBack('b.txt')).toBe('x = 1\ny = 1\nz = 1\n');
  });

  it('matches LF snippets in CRLF files and keeps CRLF', async () => {
    writeFiles(root, { 'w.txt': 'a\r\nb\r\nc\r\n' });
    await edit('w.txt', 'a\nb', 'A\nB');
    expect(readBack('w.txt')).toBe('A\r\nB\r\nc\r\n');
  });

  it('refuses artifacts and missing files', async () => {
    writeFiles(root, { 'artifacts/deck.md': 'title' });
    await expect(edit('artifacts/deck.md', 'title', 'new')).rejects.toThrow(/artifacts are never overwritten/);
    await expect(edit('nope.txt', 'a', 'b')).rejects.toThrow(/File not found: nope.txt/);
  });

  it('shows a unified diff in assess', async () => {
    writeFiles(root, { 'a.txt': source });
    const risk = await assess('a.txt', 'five\n', 'FIVE\nFIVE-B\n');
    expect(risk?.risk).toBe('standard');
    expect(risk?.detail).toBe(
      ['--- a/a.txt', '+++ b/a.txt', '@@ -2,7 +2,8 @@', ' two', ' three', ' four', '-five', '+FIVE', '+FIVE-B', ' six', ' seven', ' eight'].join('\n'),
    );
    expect(readBack('a.txt')).toBe(source);
  });

  it('shows a deletion diff and a diff within a line', async () => {
    writeFiles(root, { 'a.txt': source });
    expect((await assess('a.txt', 'two\n', ''))?.detail).toBe(
      ['--- a/a.txt', '+++ b/a.txt', '@@ -1,5 +1,4 @@', ' one', '-two', ' three', ' four', ' five'].join('\n'),
    );
    expect((await assess('a.txt', 'igh', 'IGH'))?.detail).toBe(
      ['--- a/a.txt', '+++ b/a.txt', '@@ -5,4 +5,4 @@', ' five', ' six', ' seven', '-eight', '+eIGHt'].join('\n'),
    );
  });

  it('explains a failing edit in assess instead of throwing', async () => {
    writeFiles(root, { 'a.txt': source });
    expect((await assess('a.txt', 'missing', 'x'))?.detail).toMatch(/^edit a.txt: old_str not found/);
  });

  it('refuses to edit a source (originals are never modified), and says so on the approval card', async () => {
    writeFiles(root, { 'source/paper.md': 'original' });
    await expect(edit('source/paper.md', 'original', 'changed')).rejects.toThrow(/never modified; write your version under work\//);
    expect((await assess('source/paper.md', 'original', 'changed'))?.detail).toMatch(/^edit source\/paper.md: .*never modified/);
    expect(readBack('source/paper.md')).toBe('original');
  });
});
