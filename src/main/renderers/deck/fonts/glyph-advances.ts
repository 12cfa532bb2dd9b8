// Advance widths, in em, read from a font file with fontkit. A deck measures the same few hundred
// characters thousands of times, so each font keeps a per-code-point map and each file is parsed
// once per process. LibreOffice applies the font's pair kerning (and ligatures), so each pair's
// adjustment is shaped once with fontkit and kept too.
import * as fontkit from 'fontkit';
import { type FontFileRef } from './font-discovery';

export class GlyphAdvances {
  private readonly advances = new Map<number, number>();
  private readonly kerns = new Map<number, number>();
  private readonly unitsPerEm: number;

  constructor(private readonly font: fontkit.Font) {
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

  /** What shaping `a` then `b` adds to their two advances (kerning, ligatures), in em. */
  pairEm(a: number, b: number): number {
    const key = a * 0x110000 + b;
    const cached = this.kerns.get(key);
    if (cached !== undefined) return cached;
    const advA = this.advanceEm(a);
    const advB = this.advanceEm(b);
    let em = 0;
    if (advA !== undefined && advB !== undefined) {
      em = this.font.layout(String.fromCodePoint(a, b)).advanceWidth / this.unitsPerEm - advA - advB;
    }
    this.kerns.set(key, em);
    return em;
  }
}

const loaded = new Map<string, GlyphAdvances | null>();

function isCollection(f: fontkit.Font | fontkit.FontCollection): f is fontkit.FontCollection {
  return Array.isArray((f as fontkit.FontCollection).fonts);
}

/** The advances of one font file (the `index`th face of a collection); null when it cannot be read. */
export function loadGlyphAdvances(ref: FontFileRef): GlyphAdvances | null {
  const key = `${ref.file}#${ref.index}`;
  if (loaded.has(key)) return loaded.get(key) ?? null;
  let result: GlyphAdvances | null = null;
  try {
    const opened = fontkit.openSync(ref.file);
    const font = isCollection(opened) ? opened.fonts[ref.index] : opened;
    if (font) result = new GlyphAdvances(font);
  } catch {
    // An unreadable or unsupported file: the caller falls back to the width table and says so.
    result = null;
  }
  loaded.set(key, result);
  return result;
}
