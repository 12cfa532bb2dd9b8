import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { minimalPdf } from '../sources/testing';
import { grepTool } from './grep';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';

let root: string;
beforeEach(() => {
  root = makeTempRoot();
  writeFiles(root, {
    'src/app.ts': 'const a = 1;\n// TODO: tidy\nexport const b = 2;\n',
    'src/util/helpers.ts': 'export function load() {}\n// todo lower\n',
    'docs/报告.md': '# 研究计划\nTODO: 补充数据\n',
    'node_modules/x/index.ts': '// TODO: vendored\n',
    'bin/data.bin': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01]),
  });
});
afterEach(() => removeTemp(root));

const grep = (args: { pattern: string; path?: string; glob?: string; ignore_case?: boolean }) => grepTool.execute(args, contextFor(root));

describe('grep', () => {
  it('returns path:line: text for matches, skipping node_modules and binaries', async () => {
    const result = await grep({ pattern: 'TODO' });
    expect(result.content).toBe(['docs/报告.md:2: TODO: 补充数据', 'src/app.ts:2: // TODO: tidy'].join('\n'));
  });

  it('filters by glob (basename globs match at any depth) and by path', async () => {
    expect((await grep({ pattern: 'export', glob: '*.ts' })).content).toBe(
      ['src/app.ts:3: export const b = 2;', 'src/util/helpers.ts:1: export function load() {}'].join('\n'),
    );
    expect((await grep({ pattern: 'export', path: 'src/util' })).content).toBe('src/util/helpers.ts:1: export function load() {}');
    expect((await grep({ pattern: 'export', glob: 'src/util/**' })).content).toBe('src/util/helpers.ts:1: export function load() {}');
    expect((await grep({ pattern: 'export', path: 'src/app.ts' })).content).toBe('src/app.ts:3: export const b = 2;');
  });

  it('supports case-insensitive search and regex syntax', async () => {
    expect((await grep({ pattern: 'todo\\s+lower', ignore_case: true })).content).toBe('src/util/helpers.ts:2: // todo lower');
    expect((await grep({ pattern: '研究.划' })).content).toBe('docs/报告.md:1: # 研究计划');
  });

  it('rejects an invalid regular expression clearly', async () => {
    await expect(grep({ pattern: 'foo(' })).rejects.toThrow(/^Invalid regular expression "foo\(": /);
  });

  it('says when nothing matches and refuses paths outside the root', async () => {
    expect((await grep({ pattern: 'nothing-here' })).content).toBe('No matches for "nothing-here".');
    await expect(grep({ pattern: 'x', path: '../' })).rejects.toThrow(/escapes/);
    await expect(grep({ pattern: 'x', path: 'missing' })).rejects.toThrow(/Path not found: missing/);
  });

  it('caps matches at 200 with a note', async () => {
    fs.writeFileSync(path.join(root, 'many.txt'), Array.from({ length: 300 }, (_, i) => `hit ${i}`).join('\n'));
    const result = await grep({ pattern: '^hit', path: 'many.txt' });
    expect(result.content.split('\n').filter((l) => l.startsWith('many.txt:'))).toHaveLength(200);
    expect(result.content).toContain('(Showing the first 200 matches; narrow the pattern, path or glob.)');
  });

  it('skips files over 5 MB and says so', async () => {
    fs.writeFileSync(path.join(root, 'huge.txt'), `TODO big\n${'x'.repeat(5 * 1024 * 1024)}`);
    const result = await grep({ pattern: 'TODO big' });
    expect(result.content).toContain('No matches');
    expect(result.content).toContain('1 file(s) over 5 MB were skipped.');
  });
});

describe('grep: sources by page', () => {
  beforeEach(() => {
    writeFiles(root, {
      'source/report.pdf': minimalPdf([['Alpha page one'], ['Beta page two', 'Budget: 42'], ['Gamma page three']], { title: 'Budget Report' }),
      'source/cut.pdf': new TextEncoder().encode('%PDF-1.4\n1 0 obj\n'),
    });
  });

  it('extracts sources on the fly and reports matches by page, never matching the markers', async () => {
    const result = await grep({ pattern: 'page', path: 'source' });
    expect(result.content.split('\n\n')[0]).toBe(
      ['source/report.pdf (page 1): Alpha page one', 'source/report.pdf (page 2): Beta page two', 'source/report.pdf (page 3): Gamma page three'].join('\n'),
    );
    expect(result.content).toContain('(Not searched, could not be read: source/cut.pdf (corrupt or truncated PDF');
    expect((await grep({ pattern: 'Budget' })).content.split('\n\n')[0]).toBe(
      ['source/report.pdf (document info): # Budget Report', 'source/report.pdf (page 2): Budget: 42'].join('\n'),
    );
  });

  it('matches globs against the source name, searches a cache named directly, and skips sidecars', async () => {
    expect((await grep({ pattern: 'Gamma', glob: '*.pdf' })).content).toContain('source/report.pdf (page 3): Gamma page three');
    expect((await grep({ pattern: 'Gamma', path: 'source/report.pdf.md' })).content).toBe('source/report.pdf (page 3): Gamma page three');
    expect((await grep({ pattern: 'sha256', path: 'source' })).content).toMatch(/^No matches for "sha256"\./);
  });
});

describe('grep with a catastrophic pattern', () => {
  it('gives up on it with a clear error while the event loop keeps running', async () => {
    fs.writeFileSync(path.join(root, 'evil.txt'), `${'a'.repeat(40)}b\n`);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 100);
    const started = Date.now();
    try {
      await expect(grepTool.execute({ pattern: '(a+)+$', path: 'evil.txt' }, contextFor(root))).rejects.toThrow(/took too long.*simplify it/);
    } finally {
      clearInterval(ticker);
    }
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(12_000);
    expect(elapsed).toBeGreaterThanOrEqual(9_000);
    expect(ticks).toBeGreaterThan(50);
  }, 20_000);

  it('stops at once when the run is cancelled', async () => {
    fs.writeFileSync(path.join(root, 'evil.txt'), `${'a'.repeat(40)}b\n`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    await expect(grepTool.execute({ pattern: '(a+)+$', path: 'evil.txt' }, contextFor(root, controller.signal))).rejects.toThrow(/cancelled/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
