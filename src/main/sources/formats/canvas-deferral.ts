// pdfjs's display module `require`s @napi-rs/canvas as soon as it is imported in Node, to polyfill
// DOMMatrix, ImageData and Path2D for drawing. Folio only reads text and positions, which use none
// of them, but that load costs every thread that imports pdfjs about 36 MB of RSS and 130 ms
// (Skia's native module, and fontconfig scanning every system font; measured with `require` alone).
// So while pdfjs is imported, the specifier resolves to a stand-in whose three classes load the
// real package the first time one is constructed: drawing still works, text pays nothing. DOMMatrix
// is the package's own pure-JavaScript class (`@napi-rs/canvas/geometry`, which the package
// re-exports), since pdfjs builds one when its module is evaluated.
import { createRequire } from 'node:module';

const CANVAS = '@napi-rs/canvas';
const POLYFILLED = ['DOMMatrix', 'ImageData', 'Path2D'] as const;

type NodeRequire = ReturnType<typeof createRequire>;
type Constructor = new (...args: unknown[]) => object;

/** One class per polyfill whose `new` builds the real package's object (a constructor may return another object). */
function deferredClass(load: () => Record<string, unknown>, name: (typeof POLYFILLED)[number]): Constructor {
  const holder = {
    [name]: class {
      constructor(...args: unknown[]) {
        const Real = load()[name] as Constructor;
        return new Real(...args);
      }
    },
  };
  return holder[name];
}

/**
 * Runs `importPdfjs` with @napi-rs/canvas, as resolved from `pdfjsFile` (pdfjs's display module),
 * answered from the require cache by the stand-in; the entry is removed afterwards, so a later
 * `require` of the package (pdfjs's canvas factory, when something draws) loads the real one. When
 * the package is not installed, pdfjs's own fallback applies and nothing is done here.
 */
export async function withDeferredCanvas<T>(pdfjsFile: string, importPdfjs: () => Promise<T>): Promise<T> {
  let require: NodeRequire;
  let resolved: string;
  try {
    require = createRequire(pdfjsFile);
    resolved = require.resolve(CANVAS);
  } catch {
    return importPdfjs();
  }
  if (require.cache[resolved]) return importPdfjs();
  let real: Record<string, unknown> | null = null;
  const load = (): Record<string, unknown> => {
    // Constructed while pdfjs is still being imported: the stand-in must not answer for itself.
    if (require.cache[resolved]?.exports === exports) delete require.cache[resolved];
    return (real ??= require(CANVAS) as Record<string, unknown>);
  };
  const exports: Record<string, Constructor> = Object.fromEntries(POLYFILLED.map((name) => [name, deferredClass(load, name)]));
  try {
    exports.DOMMatrix = (require(`${CANVAS}/geometry`) as { DOMMatrix: Constructor }).DOMMatrix;
  } catch {
    // another layout of the package: the deferred class loads it whole when pdfjs builds its matrix
  }
  // The cache is Node's documented way to answer a `require` with a module of one's own.
  require.cache[resolved] = { id: resolved, filename: resolved, loaded: true, exports } as unknown as NodeJS.Module;
  try {
    return await importPdfjs();
  } finally {
    if (require.cache[resolved]?.exports === exports) delete require.cache[resolved];
  }
}
