import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolioError } from '../../../shared/errors';
import { resolveInside } from '../../workspace/task-paths';
import { containRect, loadImage, readImageInfo } from './images';

function pngHeader(w: number, h: number): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
}

function jpegHeader(w: number, h: number): Buffer {
  // SOI, an APP0 segment to skip, then SOF0 with height/width.
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x06, 0x4a, 0x46, 0x49, 0x46]);
  const sof = Buffer.alloc(19);
  sof.set([0xff, 0xc0, 0x00, 0x11, 0x08]);
  sof.writeUInt16BE(h, 5);
  sof.writeUInt16BE(w, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]);
}

describe('readImageInfo', () => {
  it('reads PNG, JPEG and GIF sizes from header bytes', () => {
    expect(readImageInfo(pngHeader(200, 120))).toEqual({ mime: 'image/png', width: 200, height: 120 });
    expect(readImageInfo(jpegHeader(640, 480))).toEqual({ mime: 'image/jpeg', width: 640, height: 480 });
    const gif = Buffer.from('GIF89a\x10\x00\x20\x00', 'latin1');
    expect(readImageInfo(gif)).toEqual({ mime: 'image/gif', width: 16, height: 32 });
  });

  it('returns undefined for anything else', () => {
    expect(readImageInfo(Buffer.from('not an image at all'))).toBeUndefined();
    expect(readImageInfo(Buffer.from([0xff, 0xd8, 0x00]))).toBeUndefined();
  });
});

describe('containRect', () => {
  it('fits a wide image to the box width and centres it vertically', () => {
    const r = containRect(400, 100, { x: 1, y: 1, w: 8, h: 4 });
    expect(r).toEqual({ x: 1, y: 2, w: 8, h: 2 });
  });

  it('fits a tall image to the box height, keeping the aspect ratio', () => {
    const r = containRect(100, 200, { x: 0, y: 0, w: 8, h: 4 });
    expect(r.h).toBe(4);
    expect(r.w / r.h).toBeCloseTo(0.5);
    expect(r.x).toBe(3);
  });
});

describe('resolveInside / loadImage', () => {
  let base: string;
  let outside: string;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'deck-img-'));
    outside = mkdtempSync(join(tmpdir(), 'deck-out-'));
    mkdirSync(join(base, 'img'));
    writeFileSync(join(base, 'img', 'a.png'), pngHeader(20, 10));
    writeFileSync(join(outside, 'secret.png'), pngHeader(20, 10));
    symlinkSync(outside, join(base, 'link'));
    writeFileSync(join(base, 'notes.txt'), 'hello');
  });
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('loads an image inside the task folder as a data URI', () => {
    const img = loadImage(base, 'img/a.png');
    expect(img.ok).toBe(true);
    if (img.ok) {
      expect(img.info).toMatchObject({ width: 20, height: 10 });
      expect(img.data.startsWith('image/png;base64,')).toBe(true);
    }
  });

  it('reports missing and non-image files without throwing', () => {
    expect(loadImage(base, 'img/none.png')).toMatchObject({ ok: false, reason: expect.stringMatching(/not found/) as unknown });
    expect(loadImage(base, 'notes.txt')).toMatchObject({ ok: false, reason: expect.stringMatching(/not a PNG/) as unknown });
  });

  it('refuses absolute paths, .. and symlinks that leave the folder', () => {
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (err) {
        return err instanceof FolioError ? err.code : 'other';
      }
      return undefined;
    };
    expect(code(() => resolveInside(base, join(outside, 'secret.png')))).toBe('path_escape');
    expect(code(() => resolveInside(base, '../x.png'))).toBe('path_escape');
    expect(code(() => resolveInside(base, 'link/secret.png'))).toBe('path_escape');
    expect(code(() => resolveInside(base, 'img/a.png'))).toBeUndefined();
  });
});
