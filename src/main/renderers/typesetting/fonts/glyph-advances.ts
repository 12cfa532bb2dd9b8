// Advance widths, in em, read from a font file with fontkit. A deck measures the same few hundred
// characters thousands of times, so each font keeps a per-code-point map and each file is parsed
// once per process. LibreOffice applies the font's pair kerning, so the pairs of the font's `kern`
// table are kept too. (Shaping each pair with fontkit's layout() was as exact but cost ~200 ms per
// file to set up; fonts with GPOS-only kerning are measured unkerned, which errs wide.)
import { createRequire } from 'node:module';
import type * as Fontkit from 'fontkit';

// fontkit is required at the first measurement (synchronous, like the measurer), not at start-up.
let fontkitModule: typeof Fontkit | undefined;
const fontkit = (): typeof Fontkit => (fontkitModule ??= createRequire(import.meta.url)('fontkit') as typeof Fontkit);
import { type FontFileRef } from './font-discovery';

export class GlyphAdvances {
  private readonly advances = new Map<number, number>();
  private kernPairs: Map<number, number> | undefined;
  private readonly unitsPerEm: number;

  constructor(private readonly font: Fontkit.Font) {
    this.unitsPerEm = font.unitsPerEm || 1000;
  }

  /** Advance of `codePoint` in em, or undefined when the font has no glyph for it. */
  advanceEm(codePoint: number): number | undefined {
    const cached = this.advances.get(codePoint);
    if (cached !== undefined) return cached < 0 ? undefined : cached;
    const em = this.font.hasGlyphForCodePoint(codePoint)
      ? this.font.glyphForCodePoint(codePoint).advanceWidth / this.unitsPerEm
      : -1;
    this.advances.set(codePoint, em);
    return em < 0 ? undefined : em;
  }

  /** The kerning between `a` and `b` (code points), in em. */
  pairEm(a: number, b: number): number {
    this.kernPairs ??= readKernPairs(this.font, this.unitsPerEm);
    if (this.kernPairs.size === 0) return 0;
    const left = this.font.glyphForCodePoint(a).id;
    const right = this.font.glyphForCodePoint(b).id;
    return this.kernPairs.get(left * 0x10000 + right) ?? 0;
  }
}

interface KernTable {
  tables?: { format: number; subtable?: { pairs?: { left: number; right: number; value: number }[] } }[];
}

/** Format-0 pairs of the `kern` table as parsed by fontkit, keyed by left and right glyph id. */
function readKernPairs(font: Fontkit.Font, unitsPerEm: number): Map<number, number> {
  const pairs = new Map<number, number>();
  try {
    const kern = (font as unknown as { kern?: KernTable }).kern;
    for (const table of kern?.tables ?? []) {
      if (table.format !== 0) continue;
      for (const p of table.subtable?.pairs ?? []) pairs.set(p.left * 0x10000 + p.right, p.value / unitsPerEm);
    }
  } catch {
    // A malformed kern table: measure unkerned, which errs wide.
  }
  return pairs;
}

const loaded = new Map<string, GlyphAdvances | null>();

function isCollection(f: Fontkit.Font | Fontkit.FontCollection): f is Fontkit.FontCollection {
  return Array.isArray((f as Fontkit.FontCollection).fonts);
}

/** The advances of one font file (the `index`th face of a collection); null when it cannot be read. */
export function loadGlyphAdvances(ref: FontFileRef): GlyphAdvances | null {
  const key = `${ref.file}#${ref.index}`;
  if (loaded.has(key)) return loaded.get(key) ?? null;
  let result: GlyphAdvances | null = null;
  try {
    const opened = fontkit().openSync(ref.file);
    const font = isCollection(opened) ? opened.fonts[ref.index] : opened;
    if (font) result = new GlyphAdvances(font);
  } catch {
    // An unreadable or unsupported file: the caller falls back to the width table and says so.
    result = null;
  }
  loaded.set(key, result);
  return result;
}

export interface EmojiCoverage {
  has(codePoint: number): boolean;
  /** The face has colour bitmaps (CBDT, sbix) and no outlines (glyf, CFF, SVG). */
  bitmapOnly: boolean;
}

/** What an emoji font file can draw; null when it cannot be read. */
export function loadEmojiCoverage(file: string): EmojiCoverage | null {
  try {
    const font = fontkit().openSync(file) as Fontkit.Font & { directory?: { tables?: Record<string, unknown> } };
    const tables = Object.keys(font.directory?.tables ?? {});
    const outlines = tables.some((t) => t === 'glyf' || t === 'CFF ' || t === 'CFF2' || t === 'SVG ');
    const bitmaps = tables.some((t) => t === 'CBDT' || t === 'sbix');
    return { has: (cp) => font.hasGlyphForCodePoint(cp), bitmapOnly: bitmaps && !outlines };
  } catch {
    return null;
  }
}
