// jszip (with pako and readable-stream, about 70 module files) is loaded at the first package
// read, not at start-up: `folio serve` answers its first request without it. It is CommonJS, so
// `require` here and an `import` elsewhere (tests, the extraction worker) share one module.
//
// Packages are written with fflate, not JSZip's own generate: JSZip deflates through pako with a
// fresh deflater per entry (half a megabyte of tables set up each time) and its stream of workers,
// which for a 100-slide deck's ~540 parts cost several times fflate's single pass.
import { createRequire } from 'node:module';
import type JSZip from 'jszip';
import type * as Fflate from 'fflate';

let jszip: typeof JSZip | undefined;
let fflate: typeof Fflate | undefined;

/** JSZip.loadAsync, with the library loaded on first use. */
export function loadZip(data: Parameters<typeof JSZip.loadAsync>[0]): Promise<JSZip> {
  jszip ??= createRequire(import.meta.url)('jszip') as typeof JSZip;
  return jszip.loadAsync(data);
}

/** Deflate level of every written package: zlib's default, as Office writes. */
const LEVEL = 6;

/**
 * The zip's entries as a deflated package, in the zip's order, every entry dated 1980-01-01 00:00
 * (the DOS epoch, as reproducible builds use), so a package's bytes depend on its parts alone.
 * Folders are written as JSZip writes them (an empty entry named with a "/").
 */
export async function writeZip(zip: JSZip): Promise<Uint8Array> {
  fflate ??= createRequire(import.meta.url)('fflate') as typeof Fflate;
  // fflate stores a date's local fields (JSZip its UTC fields): local midnight is 00:00 in every time zone.
  const mtime = new Date(1980, 0, 1, 0, 0, 0);
  const entries: Fflate.Zippable = {};
  for (const [name, entry] of Object.entries(zip.files)) {
    // A folder is named with its "/" and has no data; fflate writes such an entry as a folder.
    entries[name] = entry.dir ? [new Uint8Array(0), { level: 0, mtime }] : [await entry.async('uint8array'), { level: LEVEL, mtime }];
  }
  return fflate.zipSync(entries);
}
