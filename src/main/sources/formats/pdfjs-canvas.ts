// pdfjs's display module, imported in Node, at once loads @napi-rs/canvas (a native Skia build) to
// give the thread DOMMatrix, Path2D and ImageData, and builds one DOMMatrix at import. Only drawing
// uses them; reading text and operator lists never draws. Loading it cost every extraction worker,
// the idle spare included, about 33 MB of RSS and a tenth of a second of its start. So while pdfjs
// is imported the module is answered by an empty stand-in and the globals by stand-in classes (the
// one matrix built then is real at its first use). After the import each global loads the real
// class when it is first read (pdfjs's Type 3 glyph compiler, run for an operator list, uses a
// DOMMatrix), so code that reads them later gets what it got before.
import { createRequire } from 'node:module';

type Constructor = new (...args: unknown[]) => object;

const CANVAS_MODULE = '@napi-rs/canvas';
const DEFERRED_GLOBALS = ['DOMMatrix', 'Path2D', 'ImageData'] as const;

/** A class whose instances are the real class's, made at their first use; the real module loads then. */
function deferredClass(real: () => Constructor): Constructor {
  const placeholder = function deferredCanvasClass() {} as unknown as Constructor;
  return new Proxy(placeholder, {
    construct(_target, args: unknown[]) {
      let instance: object | null = null;
      const target = () => (instance ??= new (real())(...args));
      return new Proxy(
        {},
        {
          get(_shell, key) {
            const object = target();
            const value: unknown = Reflect.get(object, key, object);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(object) : value;
          },
          set: (_shell, key, value) => Reflect.set(target(), key, value),
          has: (_shell, key) => Reflect.has(target(), key),
          getPrototypeOf: () => Reflect.getPrototypeOf(target()),
        },
      );
    },
  });
}

/**
 * Runs `load` (which imports pdfjs's display module, resolved from `pdfjsFile`) with the canvas
 * module deferred as described above. Where the module is not installed, or the globals exist
 * already, `load` runs as it is.
 */
export async function withCanvasDeferred<T>(pdfjsFile: string, load: () => Promise<T>): Promise<T> {
  const holder = globalThis as Record<string, unknown>;
  const require = createRequire(pdfjsFile);
  let canvasFile: string;
  try {
    canvasFile = require.resolve(CANVAS_MODULE);
  } catch {
    return load();
  }
  if (DEFERRED_GLOBALS.some((name) => holder[name] !== undefined) || require.cache[canvasFile]) return load();
  // Evaluated only after the stand-in is gone from the cache, so this loads the real module.
  const real = (name: string) => () => (require(CANVAS_MODULE) as Record<string, Constructor>)[name];
  for (const name of DEFERRED_GLOBALS) holder[name] = deferredClass(real(name));
  const stub = { id: canvasFile, filename: canvasFile, loaded: true, exports: {}, children: [], paths: [] } as unknown as NodeJS.Module;
  require.cache[canvasFile] = stub;
  try {
    return await load();
  } finally {
    if (require.cache[canvasFile] === stub) delete require.cache[canvasFile];
    for (const name of DEFERRED_GLOBALS) loadOnFirstRead(holder, name, real(name));
  }
}

/** Turns a global into one that loads its real value the first time it is read (or is replaced when written). */
function loadOnFirstRead(holder: Record<string, unknown>, name: string, real: () => unknown): void {
  const settle = (value: unknown) => Object.defineProperty(holder, name, { value, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(holder, name, {
    configurable: true,
    enumerable: false,
    get() {
      const value = real();
      settle(value);
      return value;
    },
    set: settle,
  });
}
