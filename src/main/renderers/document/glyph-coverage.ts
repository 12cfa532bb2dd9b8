// Characters no installed font can draw. LibreOffice sets each character in the run's face, and where
// that face has no glyph it falls back to any installed font that has one (fontconfig); only a
// character no font has comes out as a box. So a character is reported when neither the document's
// faces (as fontconfig resolves them: SimSun → Noto Serif CJK SC...) nor any other installed family has
// it — typically emoji on a machine without an emoji font, or rare scripts. Each is reported under
// the section and heading it is in. Without fontconfig (Windows, macOS without it) nothing is said.
// An emoji is drawn from the font fontconfig gives for emoji; when that font has only colour bitmaps
// (Noto Color Emoji: CBDT, no outlines) LibreOffice's PDF leaves the character blank, so it is reported too.
import { closeSync, openSync, readSync } from 'node:fs';
import { type Nodes } from 'mdast';
import { FontDiscovery } from '../typesetting/fonts';
import { loadGlyphAdvances } from '../typesetting/fonts/glyph-advances';
import { fontSet } from './fonts';
import { type LoadedDocument } from './load-folder';
import { parseMarkdown } from './markdown';
import { plainText } from './mdast-text';
import { type DocumentIssue } from './report';

/** Characters that draw nothing or are always there: controls, spaces, joiners and variation selectors. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\u{fe00}-\u{fe0f}\u{e0020}-\u{e007f}]/u;
const MAX_LISTED = 12;
/** Characters LibreOffice takes from the emoji font whatever the run's face (emoji presentation by default). */
const EMOJI = /\p{Emoji_Presentation}/u;

/** Whether a font file (face `index` of a collection) has outline glyphs (glyf, CFF or CFF2), read from its table directory. */
export function hasOutlines(file: string, index: number): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const read = (at: number, length: number): Buffer => {
      const buffer = Buffer.alloc(length);
      readSync(fd as number, buffer, 0, length, at);
      return buffer;
    };
    let at = 0;
    if (read(0, 4).toString('latin1') === 'ttcf') at = read(12 + 4 * index, 4).readUInt32BE(0);
    const tables = read(at + 4, 2).readUInt16BE(0);
    const directory = read(at + 12, 16 * tables);
    const tags = Array.from({ length: tables }, (_, i) => directory.toString('latin1', 16 * i, 16 * i + 4));
    return tags.some((tag) => tag === 'glyf' || tag === 'CFF ' || tag === 'CFF2');
  } catch {
    // Unreadable: assume it draws, as before.
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** How a character prints: drawn, blank (its only font has colour bitmaps, which the PDF leaves out), or a box. */
export type Coverage = 'drawn' | 'blank' | 'missing';

type Place = { section?: string; heading?: string };

/** The text of every part of the document, under the section file and heading it is in. */
function placedTexts(loaded: LoadedDocument): { place: Place; text: string }[] {
  const { spec } = loaded;
  const cover = [spec.title, spec.subtitle ?? '', ...spec.authors, spec.organization ?? '', spec.date ?? ''].join('\n');
  const out: { place: Place; text: string }[] = [{ place: {}, text: cover }];
  for (const section of loaded.sections) {
    let heading: string | undefined;
    for (const node of parseMarkdown(section.markdown).children) {
      if (node.type === 'heading') heading = plainText(node).trim();
      const text = node.type === 'footnoteDefinition' ? node.children.map((c: Nodes) => plainText(c)).join('\n') : plainText(node);
      out.push({ place: { section: section.file, ...(heading === undefined ? {} : { heading }) }, text });
    }
  }
  return out;
}

export class GlyphCoverage {
  private readonly known = new Map<number, Coverage>();
  private readonly outlined = new Map<string, boolean>();

  constructor(
    private readonly faces: readonly { face: string; cjk: boolean }[],
    private readonly discovery: FontDiscovery = new FontDiscovery(),
    private readonly outlines: (file: string, index: number) => boolean = hasOutlines,
  ) {}

  /** How LibreOffice's PDF prints `codePoint`; undefined when fontconfig can't tell. */
  covers(codePoint: number): Coverage | undefined {
    const cached = this.known.get(codePoint);
    if (cached !== undefined) return cached;
    if (EMOJI.test(String.fromCodePoint(codePoint))) {
      // fontconfig answers with its best match for the emoji language, which has the character when any font does.
      const emoji = this.discovery.emojiFallback(codePoint);
      const key = emoji && `${emoji.file}#${emoji.index}`;
      if (emoji && key) {
        const drawn = this.outlined.get(key) ?? this.outlines(emoji.file, emoji.index);
        this.outlined.set(key, drawn);
        if (!drawn) {
          this.known.set(codePoint, 'blank');
          return 'blank';
        }
      }
    }
    const own = this.faces.some(({ face, cjk }) => {
      const ref = this.discovery.find({ face, bold: false, cjk });
      return ref !== null && loadGlyphAdvances(ref)?.advanceEm(codePoint) !== undefined;
    });
    const families = own ? [] : this.discovery.familiesCovering(codePoint);
    if (!own && families === null) return undefined;
    const covered = own || (families?.length ?? 0) > 0 ? 'drawn' : 'missing';
    this.known.set(codePoint, covered);
    return covered;
  }
}

/** The faces a document names (fonts.ts), as fontconfig is asked for them: Latin faces as Latin, CJK faces for Chinese. */
export function documentFaces(language: string): { face: string; cjk: boolean }[] {
  const faces = (['body', 'heading', 'mono'] as const).map((role) => fontSet(role, language));
  const pairs = faces.flatMap((f) => [
    { face: f.ascii, cjk: false },
    { face: f.eastAsia, cjk: true },
  ]);
  return pairs.filter((p, i) => pairs.findIndex((q) => q.face === p.face && q.cjk === p.cjk) === i);
}

/** The characters themselves, as many as a message lists, for a UI to name in its own words. */
const written = (chars: Set<number>): string =>
  [...chars]
    .slice(0, MAX_LISTED)
    .map((cp) => String.fromCodePoint(cp))
    .join(' ');
const named = (cp: number): string => `${String.fromCodePoint(cp)} (U+${cp.toString(16).toUpperCase().padStart(4, '0')})`;

/**
 * `missing_glyph` issues: one per section and heading, listing the characters no installed font has and those
 * the PDF leaves blank.
 */
export function missingGlyphIssues(loaded: LoadedDocument, coverage = new GlyphCoverage(documentFaces(loaded.spec.language))): DocumentIssue[] {
  const byPlace = new Map<string, { place: Place; chars: Set<number>; blank: Set<number> }>();
  for (const { place, text } of placedTexts(loaded)) {
    for (const ch of text) {
      const cp = ch.codePointAt(0) ?? 0;
      if (cp < 0x80 || INVISIBLE.test(ch)) continue;
      const covered = coverage.covers(cp);
      if (covered === undefined) return [];
      if (covered === 'drawn') continue;
      const key = `${place.section ?? ''}\u0000${place.heading ?? ''}`;
      const entry = byPlace.get(key) ?? { place, chars: new Set<number>(), blank: new Set<number>() };
      (covered === 'blank' ? entry.blank : entry.chars).add(cp);
      byPlace.set(key, entry);
    }
  }
  const list = (chars: Set<number>): string => {
    const more = chars.size > MAX_LISTED ? ` and ${chars.size - MAX_LISTED} more` : '';
    return `${[...chars].slice(0, MAX_LISTED).map(named).join(', ')}${more}`;
  };
  return [...byPlace.values()].map(({ place, chars, blank }) => {
    const missing = chars.size > 0 ? `no font on this machine has ${list(chars)}: LibreOffice and previews draw a box; use text instead, or install a font that has it` : '';
    const blanks =
      blank.size > 0
        ? `${list(blank)} ${blank.size === 1 ? 'prints' : 'print'} blank in the PDF and the previews: the emoji font here has colour bitmaps only, which LibreOffice's PDF leaves out (Word shows them); use text instead`
        : '';
        return { kind: 'missing_glyph' as const, ...place, params: { chars: written(chars), blank: written(blank) }, message: [missing, blanks].filter(Boolean).join('; ') };
  });
}
