// jszip (with pako and readable-stream, about 70 module files) is loaded at the first package
// read, not at start-up: `folio serve` answers its first request without it. It is CommonJS, so
// `require` here and an `import` elsewhere (tests, the extraction worker) share one module.
import { createRequire } from 'node:module';
import type JSZip from 'jszip';

let jszip: typeof JSZip | undefined;

/** JSZip.loadAsync, with the library loaded on first use. */
export function loadZip(data: Parameters<typeof JSZip.loadAsync>[0]): Promise<JSZip> {
  jszip ??= createRequire(import.meta.url)('jszip') as typeof JSZip;
  return jszip.loadAsync(data);
}
