// Resolves `![caption](path)` to image bytes inside the document folder, and sizes the picture.
// Paths are confined to the folder: URLs, absolute paths, `..` and symlinks that lead outside are refused,
// so a document cannot pull arbitrary files from the machine into a .docx it sends somewhere.
import { statSync } from 'node:fs';
import { isAbsolute, win32 } from 'node:path';
import { PathEscapeError } from '../../../shared/errors';
import { resolveInside } from '../../workspace/task-paths';
import { type ImageInfo, readImageInfo } from './image-size';
import { PX_PER_INCH, type PageGeometry, twipsToPx } from './geometry';
import { readRegularFileSync } from '../../workspace/task-paths';

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type ResolvedImage =
  | { ok: true; data: Uint8Array; info: ImageInfo }
    | { ok: false; reason: 'missing' | 'refused' | 'unsupported'; message: string; construct?: 'image_remote' | 'image_path' | 'image_large' | 'image_format' };

export function resolveImage(folder: string, url: string): ResolvedImage {
  const raw = safeDecode(url.trim());
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) && !win32.isAbsolute(raw)) {
    return { ok: false, reason: 'unsupported', construct: 'image_remote', message: `remote or non-file image "${url}" is not embedded; put the file in the document folder` };
  }
  if (isAbsolute(raw) || win32.isAbsolute(raw)) {
    return { ok: false, reason: 'refused', construct: 'image_path', message: `image path "${url}" is absolute; use a path relative to the document folder` };
  }
  if (raw.split(/[/\\]/).includes('..')) {
    return { ok: false, reason: 'refused', construct: 'image_path', message: `image path "${url}" leaves the document folder ("..")` };
  }
  let real: string;
  try {
    real = resolveInside(folder, raw);
  } catch (err) {
    if (err instanceof PathEscapeError) return { ok: false, reason: 'refused', construct: 'image_path', message: `image "${url}" links outside the document folder` };
    throw err;
  }
  if (!isFile(real)) return { ok: false, reason: 'missing', message: `image not found: ${raw}` };
  if (statSync(real).size > MAX_IMAGE_BYTES) {
    return { ok: false, reason: 'unsupported', construct: 'image_large', message: `image ${raw} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB` };
  }
  const data = new Uint8Array(readRegularFileSync(real, raw));
  const info = readImageInfo(data);
  if (!info) return { ok: false, reason: 'unsupported', construct: 'image_format', message: `image ${raw} is not a PNG or JPEG file` };
  return { ok: true, data, info };
}

/** Print resolution a picture should have at its placed size; below it, it looks soft on paper. */
export const TARGET_DPI = 150;
/** A small picture is still placed at least this share of the text width, so it stays legible. */
const MIN_WIDTH_SHARE = 0.5;

/**
 * The picture's size in pixels (docx converts at 96 dpi): as wide as the text, but no wider than its own
 * pixels allow at 150 dpi (a 600-pixel diagram is not blown up to a blur), and no narrower than half the
 * text width; keeping the aspect ratio, and no taller than 60% of the text height so a tall figure leaves
 * room for its caption.
 */
export function fitImage(info: ImageInfo, geometry: PageGeometry): { width: number; height: number } {
  const maxWidth = twipsToPx(geometry.textWidth);
  const maxHeight = twipsToPx(geometry.textHeight) * 0.6;
  const natural = (info.width / TARGET_DPI) * PX_PER_INCH;
  let width = Math.min(maxWidth, Math.max(maxWidth * MIN_WIDTH_SHARE, natural));
  let height = (info.height / info.width) * width;
  if (height > maxHeight) {
    width = (maxHeight / height) * width;
    height = maxHeight;
  }
  return { width: Math.round(width), height: Math.round(height) };
}

/** The resolution the picture prints at when placed `placedWidthPx` (96-dpi pixels) wide. */
export function effectiveDpi(info: ImageInfo, placedWidthPx: number): number {
  return Math.round(info.width / (placedWidthPx / PX_PER_INCH));
}

function safeDecode(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
