import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { globTool } from './glob';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';

let base: string;
let root: string;
beforeEach(() => {
  base = makeTempRoot();
  root = path.join(base, 'task');
  writeFiles(base, {
    'task/source/b.md': 'b',
    'task/source/a.md': 'a',
    'task/source/报告.pdf': 'pdf',
    'task/notes/c.md': 'c',
    'task/.hidden/d.md': 'd',
    'task/node_modules/pkg/e.md': 'e',
    'task/.git/f.md': 'f',
    'outside/g.md': 'g',
  });
});
afterEach(() => removeTemp(base));

const glob = (pattern: string) => globTool.execute({ pattern }, contextFor(root));

describe('glob', () => {
  it('lists matches sorted, skipping node_modules and .git', async () => {
    const result = await glob('**/*.md');
    expect(result.content.split('\n')).toEqual(['.hidden/d.md', 'notes/c.md', 'source/a.md', 'source/b.md']);
  });

  it('matches Chinese names', async () => {
    expect((await glob('source/*.pdf')).content).toBe('source/报告.pdf');
  });

  it('says when nothing matches', async () => {
    expect((await glob('**/*.docx')).content).toBe('No files match **/*.docx.');
  });

  it('caps results at 500 with a note', async () => {
    for (let i = 0; i < 520; i += 1) fs.writeFileSync(path.join(root, 'notes', `n${String(i).padStart(3, '0')}.txt`), '');
    const result = await glob('notes/*.txt');
    const lines = result.content.split('\n');
    expect(lines.slice(0, 500)).toHaveLength(500);
    expect(lines[0]).toBe('notes/n000.txt');
    expect(result.content).toContain('(Showing the first 500 of 520 files; use a narrower pattern.)');
    expect(result.content).not.toContain('n500.txt');
  });

  it('refuses patterns that escape the root', async () => {
    await expect(glob('../outside/*.md')).rejects.toThrow(/contains "\.\."/);
    await expect(glob('source/../../outside/*.md')).rejects.toThrow(/contains "\.\."/);
    await expect(glob('{..,source}/*.md')).rejects.toThrow(/contains "\.\."/);
    await expect(glob('/etc/*')).rejects.toThrow(/absolute/);
    await expect(glob('C:/Windows/*')).rejects.toThrow(/absolute/);
  });

  it('does not follow a symlinked directory out of the root', async () => {
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'escape'));
    expect((await glob('**/g.md')).content).toBe('No files match **/g.md.');
  });

  it('does not list an outside folder named through a link (link_out/*)', async () => {
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'link_out'));
    fs.symlinkSync(path.join(base, 'outside', 'g.md'), path.join(root, 'notes', 'g-link.md'));
    expect((await glob('link_out/*')).content).toBe('No files match link_out/*.');
    expect((await glob('link_out/**')).content).toBe('No files match link_out/**.');
    expect((await glob('notes/*')).content).toBe('notes/c.md');
  });

  it('lists the task’s source/ from a coding task’s project folder', async () => {
    writeFiles(base, { 'repo/src/x.ts': 'x' });
    const ctx = { ...contextFor(path.join(base, 'repo')), taskRoot: root };
    expect((await globTool.execute({ pattern: 'source/*.md' }, ctx)).content).toBe('source/a.md\nsource/b.md');
    expect((await globTool.execute({ pattern: '**/*.ts' }, ctx)).content).toBe('src/x.ts');
  });
});
