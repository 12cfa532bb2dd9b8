// Measurement from the font files LibreOffice will draw with: each face is resolved through
// fontconfig, read with fontkit, and measured per character; a face without a readable file (or a
// character its font lacks) falls back to the width table, and `sourceOf` says which happened.
import { type MeasureStyle, type MetricsSource } from '../text-measurer';
import { FontDiscovery } from './font-discovery';
import { type GlyphAdvances, loadGlyphAdvances } from './glyph-advances';
import { ScriptMeasurer, type Script } from './script-measurer';
import { tableCharEm } from './table-measurer';

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

  sourceOf(face: string): MetricsSource {
    return this.face(face, false, false).source;
  }

  emojiFace(): string | null {
    return this.discovery.emojiFace();
  }

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
