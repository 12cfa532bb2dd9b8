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
    expect(typeof Object.getOwnPropertyDescriptor(globalThis, 'DOMMatrix')?.get).toBe('function');
  });

  it('during the import, gives classes whose instances load and behave as the real ones at their first use; then the real classes', async () => {
    type Matrix = { scaleSelf: (x: number, y: number) => { translateSelf: (x: number, y: number) => Record<string, number> } };
    const built = await withCanvasDeferred(pdfjsFile, () => {
      // What pdfjs does at import (SCALE_MATRIX), and later with its Type 3 glyph compiler.
      const DOMMatrix = holder.DOMMatrix as new () => Matrix;
      return Promise.resolve({ unused: new DOMMatrix(), used: new DOMMatrix() });
    });
    expect(require.cache[canvasFile]).toBeUndefined();
    expect(built.unused).toBeTruthy();
    const { a, d, f } = built.used.scaleSelf(0.5, -0.25).translateSelf(0, -8);
    expect([a, d, f]).toEqual([0.5, -0.25, 2]);
    expect(require.cache[canvasFile]).toBeDefined();

    // After the import, each global is the real class, loaded when first read.
    const real = (): Record<string, unknown> => require('@napi-rs/canvas') as Record<string, unknown>;
    const DOMMatrix = holder.DOMMatrix as new () => { scaleSelf: (x: number, y: number) => Record<string, number> };
    expect(DOMMatrix).toBe(real().DOMMatrix);
    expect(new DOMMatrix().scaleSelf(2, 3)).toMatchObject({ a: 2, d: 3 });
    holder.Path2D = null;
    expect(holder.Path2D).toBeNull();
    expect(holder.ImageData).toBe(real().ImageData);
  });

  it('leaves globals that exist alone', async () => {
    class Mine {}
    holder.DOMMatrix = Mine;
    await withCanvasDeferred(pdfjsFile, () => Promise.resolve(null));
    expect(holder.DOMMatrix).toBe(Mine);
    expect(holder.Path2D).toBeUndefined();
  });
});
