// The colours of a template picture that text may sit on (a photo background, a large picture
// behind a placeholder), read from its pixels at import: a grid of cell averages, so the planner can
// tell what is behind any text box on it and pick a colour, or a scrim, that reads there.
import { createRequire } from 'node:module';
import type JpegJs from 'jpeg-js';
import type PngJs from 'pngjs';
import { type PictureSamples } from '../../../../shared/specs/themes';
import { imageMimeOf } from '../../../sources/kinds';

const COLS = 24;
const ROWS = 14;
/** Pixels read per cell at most (a large photo is sampled, not read whole). */
const PER_CELL = 256;

interface Bitmap {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  data: Uint8Array;
}

const load = createRequire(import.meta.url);

/** Decoded by what the bytes are, not what the part is named (pptxgenjs, among others, names a JPEG `.png`). */
function decode(bytes: Uint8Array): Bitmap | undefined {
  const mime = imageMimeOf(bytes.subarray(0, 16));
  if (mime === 'image/png') {
    const { PNG } = load('pngjs') as typeof PngJs;
    const png = PNG.sync.read(Buffer.from(bytes));
    return { width: png.width, height: png.height, data: png.data };
  }
  if (mime === 'image/jpeg') {
    const jpeg = load('jpeg-js') as typeof JpegJs;
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 256, maxResolutionInMP: 100 });
    return { width: img.width, height: img.height, data: img.data };
  }
  return undefined;
}

const hex2 = (v: number): string => Math.round(v).toString(16).padStart(2, '0').toUpperCase();

/** The picture's cell colours, or undefined when it cannot be read (another format, damaged). Transparent pixels count as white. */
export function samplePicture(bytes: Uint8Array): PictureSamples | undefined {
  let img: Bitmap | undefined;
  try {
    img = decode(bytes);
  } catch {
    return undefined;
  }
  if (!img || img.width < 1 || img.height < 1) return undefined;
  const colors: string[] = [];
  for (let row = 0; row < ROWS; row++) {
    const y0 = Math.floor((row * img.height) / ROWS);
    const y1 = Math.max(y0 + 1, Math.floor(((row + 1) * img.height) / ROWS));
    for (let col = 0; col < COLS; col++) {
      const x0 = Math.floor((col * img.width) / COLS);
      const x1 = Math.max(x0 + 1, Math.floor(((col + 1) * img.width) / COLS));
      const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / PER_CELL)));
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let y = y0; y < Math.min(y1, img.height); y += step) {
        for (let x = x0; x < Math.min(x1, img.width); x += step) {
          const i = (y * img.width + x) * 4;
          const a = (img.data[i + 3] ?? 255) / 255;
          r += (img.data[i] ?? 0) * a + 255 * (1 - a);
          g += (img.data[i + 1] ?? 0) * a + 255 * (1 - a);
          b += (img.data[i + 2] ?? 0) * a + 255 * (1 - a);
          n++;
        }
      }
      colors.push(n === 0 ? 'FFFFFF' : `${hex2(r / n)}${hex2(g / n)}${hex2(b / n)}`);
    }
  }
  return { cols: COLS, rows: ROWS, colors };
}

/** The sampled colours under `box` (fractions of the slide) of a picture drawn at `at` (fractions too). */
export function coloursUnder(samples: PictureSamples, at: { x: number; y: number; w: number; h: number }, box: { x: number; y: number; w: number; h: number }): string[] {
  const clamp = (v: number): number => Math.min(1, Math.max(0, v));
  const u0 = clamp((box.x - at.x) / at.w);
  const u1 = clamp((box.x + box.w - at.x) / at.w);
  const v0 = clamp((box.y - at.y) / at.h);
  const v1 = clamp((box.y + box.h - at.y) / at.h);
  const out = new Set<string>();
  for (let row = Math.floor(v0 * samples.rows); row <= Math.min(samples.rows - 1, Math.ceil(v1 * samples.rows) - 1); row++) {
    for (let col = Math.floor(u0 * samples.cols); col <= Math.min(samples.cols - 1, Math.ceil(u1 * samples.cols) - 1); col++) {
      const c = samples.colors[row * samples.cols + col];
      if (c) out.add(c);
    }
  }
  return [...out];
}
