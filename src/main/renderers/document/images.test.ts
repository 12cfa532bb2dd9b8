import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveImage } from './images';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let base: string;
let folder: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'folio-docimg-'));
  folder = join(base, 'doc');
  mkdirSync(join(folder, 'img'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(folder, 'img', 'a.png'), PNG);
  writeFileSync(join(base, 'outside', 'secret.png'), PNG);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('resolveImage', () => {
  it('embeds an image inside the document folder', () => {
    const image = resolveImage(folder, 'img/a.png');
    expect(image.ok).toBe(true);
  });

  it.each([
    ['../outside/secret.png', 'refused'],
    ['/etc/passwd', 'refused'],
    ['https://example.org/x.png', 'unsupported'],
    ['img/missing.png', 'missing'],
  ])('%s is %s', (url, reason) => {
    expect(resolveImage(folder, url)).toMatchObject({ ok: false, reason });
  });

  it('refuses a link that leads out of the document folder', () => {
    symlinkSync(join(base, 'outside', 'secret.png'), join(folder, 'img', 'link.png'));
    symlinkSync(join(base, 'outside'), join(folder, 'linkdir'));
    expect(resolveImage(folder, 'img/link.png')).toMatchObject({ ok: false, reason: 'refused' });
    expect(resolveImage(folder, 'linkdir/secret.png')).toMatchObject({ ok: false, reason: 'refused' });
  });
});
