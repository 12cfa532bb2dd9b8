// The file-size check fails on a new production file over the limit, spares tests and fixtures, and
// keeps its allowances honest (one no longer needed, or naming a file that is gone, is a finding).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFileSize } from './check-file-size.mjs';

const trees: string[] = [];
afterEach(() => {
  for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, number>): string {
  const base = mkdtempSync(join(tmpdir(), 'folio-size-'));
  trees.push(base);
  for (const [path, lines] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), 'x;\n'.repeat(lines));
  }
  return base;
}

describe('checkFileSize', () => {
  it('fails on a production file over the limit, and only on it', () => {
    const baseDir = tree({ 'src/main/big.ts': 401, 'src/main/ok.ts': 400, 'src/renderer/big.css': 500, 'src/main/big.test.ts': 900, 'src/main/kit.test-support.ts': 900, 'src/main/x.fixture.ts': 900 });
    expect(checkFileSize({ baseDir, allowed: {} })).toEqual([
      'src/main/big.ts: 401 lines (over 400): split it by what its parts do',
      'src/renderer/big.css: 500 lines (over 400): split it by what its parts do',
    ]);
  });

  it('lets an allowed table be long, and reports an allowance that is no longer needed or names no file', () => {
    const baseDir = tree({ 'src/shared/table.ts': 900, 'src/shared/small.ts': 10 });
    expect(checkFileSize({ baseDir, allowed: { 'src/shared/table.ts': 'a table' } })).toEqual([]);
    expect(checkFileSize({ baseDir, allowed: { 'src/shared/table.ts': 'a table', 'src/shared/small.ts': 'was long', 'src/shared/gone.ts': 'deleted' } })).toEqual([
      'src/shared/small.ts: 10 lines, no longer needs its allowance in scripts/file-size/check-file-size.mjs',
      'src/shared/gone.ts: allowed in scripts/file-size/check-file-size.mjs but not found',
    ]);
  });

  it('passes on this repository', () => {
    expect(checkFileSize()).toEqual([]);
  });
});
