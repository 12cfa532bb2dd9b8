import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathEscapeError } from '../../shared/errors';
import { makeTempRoot, removeTemp, writeFiles } from '../tools/testing';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { openInside, readInside, readRegularFile, readRegularFileSync, resolveInside, resolveTaskPath, rootForPath, SpecialFileError, toRelative, writeInside, type TaskFolders } from './task-paths';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = makeTempRoot('folio-paths-');
  root = path.join(base, 'task');
  outside = path.join(base, 'outside');
  writeFiles(base, { 'task/source/notes.md': '# notes', 'task/work/a.md': 'a', 'task/artifacts/deck.pptx': 'x', 'outside/secret.txt': 'secret' });
});
afterEach(() => removeTemp(base));

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PathEscapeError);
    expect((err as PathEscapeError).code).toBe('path_escape');
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('resolveInside', () => {
  it.each([
    ['source/notes.md', 'source/notes.md'],
    ['drafts/new/deck.md', 'drafts/new/deck.md'],
    ['./source/../source/notes.md', 'source/notes.md'],
    ['.', ''],
    ['source/报告.pdf', 'source/报告.pdf'],
    ['草稿/提案·第二版.docx', '草稿/提案·第二版.docx'],
  ])('resolves %j inside the root', (rel, expected) => {
    expect(resolveInside(root, rel)).toBe(path.join(root, expected));
  });

  it.each([
    ['/etc/passwd', /absolute/],
    ['C:\\Windows\\system32', /Windows drive/],
    ['c:/x', /Windows drive/],
    ['\\\\server\\share\\x', /absolute/],
    ['//server/share', /absolute/],
    ['~/x', /home/],
    ['..', /escapes the task folder/],
    ['../outside/secret.txt', /escapes/],
    ['a/../../x', /escapes/],
    ['./../../x', /escapes/],
    ['source\\..\\..\\x', /escapes/],
    ['source/notes.md\0.txt', /NUL/],
    ['a\nb', /control character/],
    ['', /empty/],
    ['..／etc', /look/], // fullwidth solidus U+FF0F
    ['․․/x', /look/], // one-dot leader U+2024
    ['．．/x', /look/], // fullwidth full stop U+FF0E
    ['∕etc', /U\+2215/], // division slash
    ['a⁄b', /U\+2044/], // fraction slash
    ['‥/x', /look/], // two-dot leader U+2025
  ])('refuses %j as path_escape', (rel, message) => {
    expect(refusal(() => resolveInside(root, rel))).toMatch(message);
  });

  it.each([
    ['a symlinked file pointing outside', 'link.txt', () => fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'))],
    ['a file under a symlinked folder pointing outside', 'linkdir/secret.txt', () => fs.symlinkSync(outside, path.join(root, 'linkdir'))],
    ['the symlinked folder itself', 'linkdir', () => fs.symlinkSync(outside, path.join(root, 'linkdir'))],
    ['a new file under a symlinked parent', 'linkdir/new/file.txt', () => fs.symlinkSync(outside, path.join(root, 'linkdir'))],
    ['a dangling symlink whose target would be created outside', 'dangling.txt', () => fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling.txt'))],
    ['a relative link climbing out', 'source/evil.pdf.md', () => fs.symlinkSync('../../outside/secret.txt', path.join(root, 'source/evil.pdf.md'))],
  ])('refuses %s', (_what, rel, plant) => {
    plant();
    expect(refusal(() => resolveInside(root, rel))).toMatch(/outside/);
    expect(fs.existsSync(path.join(outside, 'new'))).toBe(false);
  });

  it('allows symlinks that stay inside, and a root reached through a symlink', () => {
    fs.symlinkSync(path.join(root, 'source'), path.join(root, 'alias'));
    expect(resolveInside(root, 'alias/notes.md')).toBe(path.join(root, 'source/notes.md'));
    const linkedRoot = path.join(base, 'linked-task');
    fs.symlinkSync(root, linkedRoot);
    expect(resolveInside(linkedRoot, 'source/notes.md')).toBe(path.join(root, 'source/notes.md'));
  });
});

describe('toRelative', () => {
  it('gives a /-separated path relative to the root, and refuses one outside', () => {
    expect(toRelative(root, path.join(root, 'source', 'notes.md'))).toBe('source/notes.md');
    expect(toRelative(root, root)).toBe('.');
    expect(() => toRelative(root, path.join(outside, 'secret.txt'))).toThrow(PathEscapeError);
  });
});

describe('resolveTaskPath', () => {
  let repo: string;
  let coding: TaskFolders;
  beforeEach(() => {
    repo = path.join(base, 'repo');
    writeFiles(repo, { 'src/a.ts': 'x', 'source/mine.txt': 'project file' });
    coding = { task: root, work: repo };
  });

  it.each([
    // [path, access, folders, root, area]
    ['source/notes.md', 'read', 'plain', 'task', 'source'],
    ['work/a.md', 'write', 'plain', 'task', 'work'],
    ['artifacts/deck.pptx', 'read', 'plain', 'task', 'artifact'],
    ['source/notes.md', 'read', 'coding', 'task', 'source'],
    ['./artifacts/x.pptx', 'write', 'coding', 'task', 'artifact'],
    ['src/a.ts', 'write', 'coding', 'work', 'work'],
    ['sourcecode/x', 'write', 'coding', 'work', 'work'],
  ] as const)('%s (%s, %s task) lies in the %s folder, area %s', (rel, access, which, rootName, area) => {
    const folders = which === 'coding' ? coding : { task: root, work: root };
    const resolved = resolveTaskPath(folders, rel, { access });
    expect(resolved.root).toBe(rootName === 'task' ? root : repo);
    expect(resolved.area).toBe(area);
  });

  it('refuses writes into source/, however the path is spelled', () => {
    fs.symlinkSync(path.join(root, 'source'), path.join(root, 'alias'));
    for (const rel of ['source/notes.md', 'source/new.md', './source/x', 'alias/notes.md']) {
      expect(() => resolveTaskPath({ task: root, work: root }, rel, { access: 'write' })).toThrow(/original files, which are never modified; write your version under work\//);
    }
    expect(resolveTaskPath({ task: root, work: root }, 'source/notes.md', { access: 'read' }).area).toBe('source');
  });

  it('refuses an area the caller did not declare', () => {
    expect(() => resolveTaskPath({ task: root, work: root }, 'work/a.md', { access: 'read', areas: ['artifact'] })).toThrow(/only works with artifacts\//);
  });

  it('maps only the exact first segment to the task folder', () => {
    expect(rootForPath(coding, 'source/*.pdf')).toBe(root);
    expect(rootForPath(coding, 'sources/x')).toBe(repo);
    expect(rootForPath(coding, '**/*.ts')).toBe(repo);
  });
});

describe('openInside / readInside / writeInside', () => {
  it('reads a plain file and follows a link that stays inside', async () => {
    fs.symlinkSync('notes.md', path.join(root, 'source/alias.md'));
    expect((await readInside(root, 'source/notes.md')).toString()).toBe('# notes');
    expect((await readInside(root, 'source/alias.md')).toString()).toBe('# notes');
  });

  it('with noLinks refuses any link at the last component, even one pointing inside', async () => {
    fs.symlinkSync('notes.md', path.join(root, 'source/alias.md'));
    await expect(readInside(root, 'source/alias.md', { noLinks: true })).rejects.toBeInstanceOf(PathEscapeError);
    fs.symlinkSync('../../outside/secret.txt', path.join(root, 'source/out.md'));
    await expect(readInside(root, 'source/out.md', { noLinks: true })).rejects.toThrow(PathEscapeError);
    await expect(readInside(root, 'source/out.md')).rejects.toThrow(/outside/);
  });

  it('refuses a folder replaced by a link to outside', async () => {
    fs.rmSync(path.join(root, 'work'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'work'));
    await expect(openInside(root, 'work/secret.txt')).rejects.toBeInstanceOf(PathEscapeError);
  });

  it('writes without following a planted link, and exclusive writes refuse an existing file', async () => {
    await writeInside(root, 'work/new/b.md', 'b');
    expect(fs.readFileSync(path.join(root, 'work/new/b.md'), 'utf8')).toBe('b');
    fs.symlinkSync(path.join(outside, 'planted.txt'), path.join(root, 'work/planted.txt'));
    await expect(writeInside(root, 'work/planted.txt', 'x')).rejects.toBeInstanceOf(PathEscapeError);
    expect(fs.existsSync(path.join(outside, 'planted.txt'))).toBe(false);
    await expect(writeInside(root, 'work/a.md', 'x', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
  });
});

describe('special files planted by a command', () => {
  const fifo = (rel: string) => execFileSync('mkfifo', [path.join(root, rel)]);

  it('a write to a FIFO with no reader is refused at once instead of blocking a pool thread', async () => {
    fifo('work/f.txt');
    await expect(writeInside(root, 'work/f.txt', 'x')).rejects.toBeInstanceOf(SpecialFileError);
    await expect(readInside(root, 'work/f.txt')).rejects.toBeInstanceOf(SpecialFileError);
  });

  it('a FIFO someone holds open is refused by its kind, for reads and writes', async () => {
    fifo('work/held');
    const reader = fs.openSync(path.join(root, 'work/held'), fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      await expect(writeInside(root, 'work/held', 'x')).rejects.toThrow(/FIFO.*not a regular file/);
      await expect(openInside(root, 'work/held')).rejects.toBeInstanceOf(SpecialFileError);
      expect(() => readRegularFileSync(path.join(root, 'work/held'), 'work/held')).toThrow(SpecialFileError);
      await expect(readRegularFile(path.join(root, 'work/held'), 'work/held')).rejects.toThrow(/work\/held is a FIFO/);
    } finally {
      fs.closeSync(reader);
    }
  });

  it('a unix socket is refused', async () => {
    const server = net.createServer();
    const sock = path.join(root, 'work/s.sock');
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      await expect(readInside(root, 'work/s.sock')).rejects.toBeInstanceOf(SpecialFileError);
      await expect(writeInside(root, 'work/s.sock', 'x')).rejects.toBeInstanceOf(SpecialFileError);
      expect(() => readRegularFileSync(sock)).toThrow(SpecialFileError);
    } finally {
      server.close();
    }
  });

  it('eight FIFO writes at once leave the thread pool free for other files', async () => {
    for (let i = 0; i < 8; i++) fifo(`work/p${i}`);
    const writes = Array.from({ length: 8 }, (_, i) => writeInside(root, `work/p${i}`, 'x').then(() => 'written', () => 'refused'));
    expect(await Promise.all(writes)).toEqual(Array(8).fill('refused'));
    expect((await readInside(root, 'work/a.md')).toString()).toBe('a');
  });
});
