// Run in a process of its own by canvas-deferral.test.ts: a native module, once loaded, stays loaded.
import { readFileSync } from 'node:fs';
import { loadPdfjs } from './pdfjs-load';

const skiaLoaded = () => readFileSync('/proc/self/maps', 'utf8').includes('skia');

const pdfjs = await loadPdfjs();
const afterImport = skiaLoaded();
const globals = globalThis as unknown as { DOMMatrix: new (init?: number[]) => { a: number; e: number }; Path2D: new () => { addPath: unknown } };
const matrix = new globals.DOMMatrix([2, 0, 0, 2, 5, 0]);
const afterMatrix = skiaLoaded();
const path = new globals.Path2D();
process.stdout.write(
  JSON.stringify({ version: pdfjs.version, afterImport, matrix: [matrix.a, matrix.e], afterMatrix, pathHasAddPath: typeof path.addPath === 'function', afterPath: skiaLoaded() }),
);
