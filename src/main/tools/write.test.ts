import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';
import { writeTool } from './write';

let root: string;
beforeEach(() => {
  root = makeTempRoot();
});
afterEach(() => removeTemp(root));

const write = (p: string, content: string) => writeTool.execute({ path: p, content }, contextFor(root));

describe('write', () => {
  it('creates parent folders and reports bytes written', async () => {
    const result = await write('drafts/提案/outline.md', '# 提纲\n');
    expect(fs.readFileSync(path.join(root, 'drafts/提案/outline.md'), 'utf8')).toBe('# 提纲\n');
    expect(result.content).toBe(`Created drafts/提案/outline.md (${Buffer.byteLength('# 提纲\n')} bytes written).`);
    expect(result.touched).toEqual(['drafts/提案/outline.md']);
  });

  it('replaces an ordinary existing file', async () => {
    writeFiles(root, { 'notes.md': 'old' });
    const result = await write('notes.md', 'new');
    expect(fs.readFileSync(path.join(root, 'notes.md'), 'utf8')).toBe('new');
    expect(result.content).toMatch(/^Replaced notes.md \(3 bytes written\)/);
  });

  it('never overwrites an artifact', async () => {
    writeFiles(root, { 'artifacts/deck-v1.pptx': 'original' });
    await expect(write('artifacts/deck-v1.pptx', 'clobber')).rejects.toThrow(
      'artifacts/deck-v1.pptx already exists: artifacts are never overwritten; write a new name.',
    );
    expect(fs.readFileSync(path.join(root, 'artifacts/deck-v1.pptx'), 'utf8')).toBe('original');
    await expect(write('artifacts/deck-v2.md', 'fresh')).resolves.toMatchObject({ touched: ['artifacts/deck-v2.md'] });
  });

  it('refuses escapes and directories', async () => {
    await expect(write('../x.txt', 'x')).rejects.toThrow(/escapes/);
    await expect(write('/tmp/x.txt', 'x')).rejects.toThrow(/absolute/);
    writeFiles(root, { 'dir/a.txt': 'a' });
    await expect(write('dir', 'x')).rejects.toThrow(/is a directory/);
  });

  it('refuses to write into source/: the originals are never modified', async () => {
    writeFiles(root, { 'source/paper.md': 'original' });
    fs.symlinkSync('source', path.join(root, 'src-alias'));
    for (const target of ['source/paper.md', 'source/new.md', 'src-alias/paper.md']) {
      await expect(write(target, 'changed')).rejects.toThrow(/never modified; write your version under work\//);
    }
    expect(fs.readFileSync(path.join(root, 'source/paper.md'), 'utf8')).toBe('original');
    expect(fs.existsSync(path.join(root, 'source/new.md'))).toBe(false);
    expect((await write('work/paper.md', 'changed')).touched).toEqual(['work/paper.md']);
  });

  it('refuses a path that leaves the task folder as path_escape', async () => {
    await expect(write('../x.md', 'x')).rejects.toMatchObject({ code: 'path_escape' });
  });
});
