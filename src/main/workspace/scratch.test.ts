import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leftoverOfKilledProcess } from './scratch.test-support';
import { makeScratchDir, makeScratchDirSync, scratchDir, sweepScratch, UPLOAD_DIR_PREFIX, useScratchRoot } from './scratch';

let data = '';
afterEach(() => rmSync(data, { recursive: true, force: true }));

describe('the data folder scratch', () => {
  it('removes what a killed process left (partial uploads, render folders) and is 0700', () => {
    data = mkdtempSync(join(tmpdir(), 'folio-scratch-'));
    const dir = scratchDir(data);
    mkdirSync(join(dir, 'folio-upload-abc'), { recursive: true, mode: 0o777 });
    writeFileSync(join(dir, 'folio-upload-abc', '0'), 'partial');
    mkdirSync(join(dir, 'folio-pdf-xyz'));
    sweepScratch(data, 'owner');
    expect(readdirSync(dir)).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("stages a process's renders in the data folder once it is used, and in the OS temp folder otherwise", async () => {
    data = mkdtempSync(join(tmpdir(), 'folio-scratch-'));
    const release = useScratchRoot(data);
    const pdf = makeScratchDirSync('folio-pdf-');
    const ocr = await makeScratchDir('folio-ocr-');
    expect(pdf.startsWith(`${scratchDir(data)}/folio-pdf-`)).toBe(true);
    expect(ocr.startsWith(`${scratchDir(data)}/folio-ocr-`)).toBe(true);
    expect(statSync(pdf).mode & 0o777).toBe(0o700);
    release();
    const loose = makeScratchDirSync('folio-pdf-');
    rmSync(loose, { recursive: true });
    expect(loose.startsWith(tmpdir())).toBe(true);
    expect(loose.startsWith(data)).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('a worker sharing the folder removes only what dead processes of this host left', async () => {
    data = mkdtempSync(join(tmpdir(), 'folio-scratch-'));
    const dead = await leftoverOfKilledProcess(data);
    expect(existsSync(join(dead, '0'))).toBe(true);
    const live = await makeScratchDir(UPLOAD_DIR_PREFIX, data);
    const foreign = join(scratchDir(data), 'folio-upload-otherhost.1-abcdef');
    mkdirSync(foreign);
    sweepScratch(data, 'shared');
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
  }, 20_000);
});
