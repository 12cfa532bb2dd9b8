// Measurement from the font files LibreOffice will draw with: each face is resolved through
// fontconfig, read with fontkit, and measured per character; a face without a readable file (or a
// character its font lacks) falls back to the width table, and `sourceOf` says which happened.
import { isCjkCapableFace } from '../../../../shared/specs/themes';
import { type MeasureStyle, type MetricsSource } from '../text-measurer';
import { FontDiscovery } from './font-discovery';
import { type EmojiCoverage, type GlyphAdvances, loadEmojiCoverage, loadGlyphAdvances } from './glyph-advances';
import { ScriptMeasurer, type Script } from './script-measurer';
import { tableCharEm } from './table-measurer';

/** Joiners, variation selectors, skin tones and tags: drawn as part of the emoji before them. */
const EMOJI_JOINERS = /[\u200D\uFE0E\uFE0F\u20E3\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;

export class FontMeasurer extends ScriptMeasurer {
  private readonly faces = new Map<string, { advances: GlyphAdvances | null; source: MetricsSource }>();

  constructor(
    private readonly discovery: FontDiscovery = new FontDiscovery(),
    private readonly load: typeof loadGlyphAdvances = loadGlyphAdvances,
  ) {
    super();
  }

  protected charEm(ch: string, script: Script, style: MeasureStyle): number {
    const bold = style.bold ?? false;
    const cp = ch.codePointAt(0) ?? 0;
    const own = script === 'cjk' ? style.fonts.cjk : style.fonts.latin;
    const em = this.face(own, bold, script === 'cjk').advances?.advanceEm(cp);
    if (em !== undefined) return em;
    // LibreOffice falls back glyph by glyph; the other face of the pair is the likeliest donor.
    const other = script === 'cjk' ? style.fonts.latin : style.fonts.cjk;
    return this.face(other, bold, script !== 'cjk').advances?.advanceEm(cp) ?? tableCharEm(ch, bold);
  }

  protected override pairEm(prev: string, ch: string, script: Script, style: MeasureStyle): number {
    // Only Latin faces kern in practice; CJK fonts' kern features would touch punctuation pairs.
    if (script !== 'latin') return 0;
    const advances = this.face(style.fonts.latin, style.bold ?? false, false).advances;
    return advances?.pairEm(prev.codePointAt(0) ?? 0, ch.codePointAt(0) ?? 0) ?? 0;
  }

  sourceOf(face: string): MetricsSource {
    // Ask as the renderer will use the face: CJK-capable faces set CJK runs (lang=zh-cn).
    return this.face(face, false, isCjkCapableFace(face)).source;
  }

  emojiFace(): string | null {
    return this.discovery.emojiFace();
  }

  override blankEmoji(sequences: readonly string[]): { emoji: string; reason: 'missing' | 'bitmap' }[] {
    const face = this.emojiFace();
    const ref = face === null ? null : this.discovery.find({ face, bold: false, cjk: false });
    if (!ref) return [];
    this.emojiCoverage ??= loadEmojiCoverage(ref.file);
    const coverage = this.emojiCoverage;
    if (!coverage) return [];
    const out: { emoji: string; reason: 'missing' | 'bitmap' }[] = [];
    for (const emoji of new Set(sequences)) {
      const base = Array.from(emoji).filter((ch) => !EMOJI_JOINERS.test(ch));
      if (base.some((ch) => !coverage.has(ch.codePointAt(0) ?? 0))) out.push({ emoji, reason: 'missing' });
      else if (coverage.bitmapOnly) out.push({ emoji, reason: 'bitmap' });
    }
    return out;
  }

  private emojiCoverage: EmojiCoverage | null | undefined;

  private face(face: string, bold: boolean, cjk: boolean): { advances: GlyphAdvances | null; source: MetricsSource } {
    const key = `${face}|${bold ? 'b' : 'r'}|${cjk ? 'c' : 'l'}`;
    let entry = this.faces.get(key);
    if (entry) return entry;
    const ref = this.discovery.find({ face, bold, cjk });
    const advances = ref ? this.load(ref) : null;
    const source: MetricsSource =
      ref && advances ? { kind: 'font', face, file: ref.file, family: ref.family } : { kind: 'table', face };
    entry = { advances, source };
    this.faces.set(key, entry);
    return entry;
  }
}
