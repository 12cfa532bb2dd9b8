import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInside, toRelative } from './paths';
import { makeTempRoot, removeTemp, writeFiles } from './testing';
import { ToolError } from './types';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = makeTempRoot('folio-paths-');
  root = path.join(base, 'task');
  outside = path.join(base, 'outside');
  writeFiles(base, { 'task/source/notes.md': '# notes', 'outside/secret.txt': 'secret' });
});
afterEach(() => removeTemp(base));

function refusal(rel: string): string {
  try {
    resolveInside(root, rel);
  } catch (err) {
    expect(err).toBeInstanceOf(ToolError);
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(rel)} to be refused`);
}

describe('resolveInside', () => {
  it('resolves ordinary relative paths, existing or not', () => {
    expect(resolveInside(root, 'source/notes.md')).toBe(path.join(root, 'source/notes.md'));
    expect(resolveInside(root, 'drafts/new/deck.md')).toBe(path.join(root, 'drafts/new/deck.md'));
    expect(resolveInside(root, './source/../source/notes.md')).toBe(path.join(root, 'source/notes.md'));
    expect(resolveInside(root, '.')).toBe(root);
  });

  it('accepts Chinese file names', () => {
    writeFiles(root, { 'source/报告.pdf': 'x' });
    expect(resolveInside(root, 'source/报告.pdf')).toBe(path.join(root, 'source/报告.pdf'));
    expect(resolveInside(root, '草稿/提案·第二版.docx')).toBe(path.join(root, '草稿/提案·第二版.docx'));
  });

  it('refuses absolute paths in POSIX, Windows and UNC form', () => {
    expect(refusal('/etc/passwd')).toMatch(/absolute/);
    expect(refusal('C:\\Windows\\system32')).toMatch(/Windows drive/);
    expect(refusal('c:/x')).toMatch(/Windows drive/);
    expect(refusal('\\\\server\\share\\x')).toMatch(/absolute/);
    expect(refusal('//server/share')).toMatch(/absolute/);
    expect(refusal('~/x')).toMatch(/home/);
  });

  it('refuses .. that escapes, however it is spelled', () => {
    expect(refusal('..')).toMatch(/escapes the task folder/);
    expect(refusal('../outside/secret.txt')).toMatch(/escapes/);
    expect(refusal('a/../../x')).toMatch(/escapes/);
    expect(refusal('source\\..\\..\\x')).toMatch(/escapes/);
  });

  it('refuses NUL bytes and control characters', () => {
    expect(refusal('source/notes.md\0.txt')).toMatch(/NUL/);
    expect(refusal('a\nb')).toMatch(/control character/);
  });

  it('refuses Unicode look-alikes of / and .', () => {
    expect(refusal('..／etc')).toMatch(/look/); // fullwidth solidus U+FF0F
    expect(refusal('․․/x')).toMatch(/look/); // one-dot leader U+2024
    expect(refusal('．．/x')).toMatch(/look/); // fullwidth full stop U+FF0E
    expect(refusal('∕etc')).toMatch(/U\+2215/); // division slash
    expect(refusal('a⁄b')).toMatch(/U\+2044/); // fraction slash
    expect(refusal('‥/x')).toMatch(/look/); // two-dot leader U+2025
  });

  it('refuses a symlinked file that points outside', () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    expect(refusal('link.txt')).toMatch(/outside the task folder/);
  });

  it('refuses paths through a symlinked directory that points outside', () => {
    fs.symlinkSync(outside, path.join(root, 'linkdir'));
    expect(refusal('linkdir/secret.txt')).toMatch(/outside/);
    expect(refusal('linkdir')).toMatch(/outside/);
  });

  it('refuses a not-yet-existing file under a symlinked parent that points outside', () => {
    fs.symlinkSync(outside, path.join(root, 'linkdir'));
    expect(refusal('linkdir/new/file.txt')).toMatch(/outside/);
    expect(fs.existsSync(path.join(outside, 'new'))).toBe(false);
  });

  it('refuses a dangling symlink whose target would be created outside', () => {
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling.txt'));
    expect(refusal('dangling.txt')).toMatch(/outside/);
  });

  it('allows symlinks that stay inside', () => {
    fs.symlinkSync(path.join(root, 'source'), path.join(root, 'alias'));
    expect(resolveInside(root, 'alias/notes.md')).toBe(path.join(root, 'source/notes.md'));
  });

  it('works when the root itself is reached through a symlink', () => {
    const linkedRoot = path.join(base, 'linked-task');
    fs.symlinkSync(root, linkedRoot);
    expect(resolveInside(linkedRoot, 'source/notes.md')).toBe(path.join(root, 'source/notes.md'));
  });
});

describe('toRelative', () => {
  it('gives a /-separated path relative to the root', () => {
    expect(toRelative(root, path.join(root, 'source', 'notes.md'))).toBe('source/notes.md');
    expect(toRelative(root, root)).toBe('.');
  });

  it('refuses a path outside the root', () => {
    expect(() => toRelative(root, path.join(outside, 'secret.txt'))).toThrow(ToolError);
  });
});

describe('rootFor (coding tasks work in a project folder)', () => {
  it('maps source/ and artifacts/ to the task folder and everything else to the project folder', async () => {
    const { rootFor } = await import('./paths');
    const ctx = { root: '/repo', taskRoot: '/data/tasks/t1' };
    expect(rootFor(ctx, 'source/paper.pdf')).toBe('/data/tasks/t1');
    expect(rootFor(ctx, './artifacts/deck.pptx')).toBe('/data/tasks/t1');
    expect(rootFor(ctx, 'src/sources.ts')).toBe('/repo');
    expect(rootFor(ctx, 'sourcecode/x')).toBe('/repo');
    expect(rootFor({ root: '/data/tasks/t1', taskRoot: '/data/tasks/t1' }, 'source/a.pdf')).toBe('/data/tasks/t1');
  });
});
