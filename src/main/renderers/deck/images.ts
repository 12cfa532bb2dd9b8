// Images for slides: confined to the task folder, sized from their own header bytes (PNG, JPEG,
// GIF) so "contain" placement needs no image library.
import { statSync } from 'node:fs';
import { resolveInside } from '../../workspace/task-paths';
import { readRegularFileSync } from '../../workspace/task-paths';

export interface ImageInfo {
  mime: 'image/png' | 'image/jpeg' | 'image/gif';
  width: number;
  height: number;
}

export function readImageInfo(bytes: Uint8Array): ImageInfo | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a && b.toString('ascii', 12, 16) === 'IHDR') {
    return { mime: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 10 && b.toString('ascii', 0, 4) === 'GIF8') {
    return { mime: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return readJpegSize(b);
  return undefined;
}

/** Walks JPEG segments to the first start-of-frame marker, which holds the pixel size. */
function readJpegSize(b: Buffer): ImageInfo | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      const height = b.readUInt16BE(i + 5);
      const width = b.readUInt16BE(i + 7);
      return width > 0 && height > 0 ? { mime: 'image/jpeg', width, height } : undefined;
    }
    i += 2 + len;
  }
  return undefined;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The largest rectangle with the image's aspect ratio inside `box`, centred. */
export function containRect(imgW: number, imgH: number, box: Rect): Rect {
  const scale = Math.min(box.w / imgW, box.h / imgH);
  const w = imgW * scale;
  const h = imgH * scale;
  return { x: box.x + (box.w - w) / 2, y: box.y + (box.h - h) / 2, w, h };
}

export type LoadedImage = { ok: true; info: ImageInfo; data: string } | { ok: false; reason: string };

const MAX_IMAGE_BYTES = 30 * 1024 * 1024;

/** Reads an image for embedding as a data URI; a missing or unreadable file is a reason, not a throw. */
export function loadImage(baseDir: string, relPath: string): LoadedImage {
  // Throws PathEscapeError for a path that leaves the task folder, also through a link.
  const full = resolveInside(baseDir, relPath);
  let bytes: Buffer;
  try {
    const st = statSync(full);
    if (!st.isFile()) return { ok: false, reason: `"${relPath}" is not a file` };
    if (st.size > MAX_IMAGE_BYTES) return { ok: false, reason: `"${relPath}" is larger than 30 MB` };
    bytes = readRegularFileSync(full, relPath);
  } catch {
    return { ok: false, reason: `"${relPath}" was not found in the task folder` };
  }
  const info = readImageInfo(bytes);
  if (!info || info.width === 0 || info.height === 0) return { ok: false, reason: `"${relPath}" is not a PNG, JPEG or GIF image` };
  return { ok: true, info, data: `${info.mime};base64,${bytes.toString('base64')}` };
}
