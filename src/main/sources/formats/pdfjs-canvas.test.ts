import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { withCanvasDeferred } from './pdfjs-canvas';

const pdfjsFile = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs');
const require = createRequire(pdfjsFile);
const canvasFile = require.resolve('@napi-rs/canvas');
const holder = globalThis as Record<string, unknown>;

afterEach(() => {
  for (const name of ['DOMMatrix', 'Path2D', 'ImageData']) delete holder[name];
});

describe('the canvas module while pdfjs is imported', () => {
  it('is an empty stand-in during the import, and the real module afterwards', async () => {
    expect(require.cache[canvasFile]).toBeUndefined();
    const seen = await withCanvasDeferred(pdfjsFile, () => Promise.resolve(require('@napi-rs/canvas') as object));
    expect(seen).toEqual({});
    // Nothing was loaded, and the stand-in is gone from the cache.
    expect(require.cache[canvasFile]).toBeUndefined();
    expect(typeof holder.DOMMatrix).toBe('function');
  });

  it('gives globals whose instances load and behave as the real classes at their first use', async () => {
    await withCanvasDeferred(pdfjsFile, () => Promise.resolve(null));
    const DOMMatrix = holder.DOMMatrix as new () => { scaleSelf: (x: number, y: number) => { translateSelf: (x: number, y: number) => Record<string, number> } };
    const unused = new DOMMatrix();
    expect(require.cache[canvasFile]).toBeUndefined();
    expect(unused).toBeTruthy();
    // As pdfjs's Type 3 glyph compiler uses it.
    const { a, d, f } = new DOMMatrix().scaleSelf(0.5, -0.25).translateSelf(0, -8);
    expect([a, d, f]).toEqual([0.5, -0.25, 2]);
    expect(require.cache[canvasFile]).toBeDefined();
  });

  it('leaves globals that exist alone', async () => {
    class Mine {}
    holder.DOMMatrix = Mine;
    await withCanvasDeferred(pdfjsFile, () => Promise.resolve(null));
    expect(holder.DOMMatrix).toBe(Mine);
    expect(holder.Path2D).toBeUndefined();
  });
});
