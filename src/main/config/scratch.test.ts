import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDir, sweepScratch } from './scratch';

let data = '';
afterEach(() => rmSync(data, { recursive: true, force: true }));

describe('the data folder scratch', () => {
  it('removes what a killed process left (partial uploads, render folders) and is 0700', () => {
    data = mkdtempSync(join(tmpdir(), 'folio-scratch-'));
    const dir = scratchDir(data);
    mkdirSync(join(dir, 'folio-upload-abc'), { recursive: true, mode: 0o777 });
    writeFileSync(join(dir, 'folio-upload-abc', '0'), 'partial');
    mkdirSync(join(dir, 'folio-pdf-xyz'));
    sweepScratch(data);
    expect(readdirSync(dir)).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
