// The data files pdfjs reads while parsing (predefined CMaps for CJK encodings, the standard 14
// fonts' metrics and outlines), read from pdfjs-dist once per thread and kept: a worker extracts
// many documents, and pdfjs's own cache lasts one document. Bounded by what pdfjs-dist ships
// (about 3.5 MB in all), and capped below that in case a future version ships more.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const MAX_KEPT_BYTES = 8 * 1024 * 1024;

type Kind = 'cMapUrl' | 'standardFontDataUrl' | 'wasmUrl';

const kept = new Map<string, Uint8Array>();
let keptBytes = 0;
let fileReads = 0;

/** How many data files this thread has read from disk (tests check that a second document reads none). */
export function pdfjsDataFileReads(): number {
  return fileReads;
}

/**
 * pdfjs's `BinaryDataFactory` shape: built per document with the base folders, asked for one file
 * at a time. Each answer is a copy, as pdfjs's worker messages would give: its font parser may
 * repair the bytes it was handed in place.
 */
export class KeptDataFactory {
  private readonly bases: Record<Kind, string | null>;

  constructor({ cMapUrl = null, standardFontDataUrl = null, wasmUrl = null }: { cMapUrl?: string | null; standardFontDataUrl?: string | null; wasmUrl?: string | null }) {
    this.bases = { cMapUrl, standardFontDataUrl, wasmUrl };
  }

  async fetch({ kind, filename }: { kind: Kind; filename: string }): Promise<Uint8Array> {
    const base = this.bases[kind];
    if (!base) throw new Error(`pdfjs data of kind ${kind} was asked for, but no folder was given`);
    const file = `${base}${filename}`;
    let bytes = kept.get(file);
    if (!bytes) {
      fileReads += 1;
      bytes = new Uint8Array(await fs.readFile(file));
      if (keptBytes + bytes.length <= MAX_KEPT_BYTES && !kept.has(file)) {
        kept.set(file, bytes);
        keptBytes += bytes.length;
      }
    }
    return bytes.slice();
  }
}

/**
 * getDocument parameters for pdfjs's data: CMaps decode CJK text in PDFs that use predefined
 * encodings (e.g. UniGB-UCS2-H) or CID fonts without a ToUnicode map; standard font data gives
 * the 14 standard fonts' glyphs. Empty when pdfjs-dist cannot be located.
 */
export function pdfjsDataParams(): { cMapUrl: string; standardFontDataUrl: string; BinaryDataFactory: typeof KeptDataFactory } | Record<string, never> {
  try {
    const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    return { cMapUrl: `${path.join(root, 'cmaps')}/`, standardFontDataUrl: `${path.join(root, 'standard_fonts')}/`, BinaryDataFactory: KeptDataFactory };
  } catch {
    return {};
  }
}
