// The layout engine: a validated spec + theme + measured text → the deck plan (every output slide as
// positioned elements) and the quality report of every compromise made on the way. Computed once;
// the .pptx drawer and the in-app preview both draw the plan.
import { type DeckSlide, type DeckSpec, type QualityReport } from '../../../../shared/specs/deck';
import { type DeckPlan, type PlannedSlide, type TextElement } from '../../../../shared/specs/deck-plan';
import { footerRegion } from '../../../../shared/specs/deck-geometry';
import { ReportBuilder, type SlideReport } from '../report';
import { splitEmoji } from '../text-runs';
import { type PlanContext, type PlanOptions, type SlideBuilder } from './context';
import { PLANNERS } from './registry';
import { followTemplateBackdrops } from './backdrops';
import { writeLinesIn } from './written-lines';
import { footerText, typesetSpec } from '../typeset-spec';

export type { PlanOptions } from './context';

const EMOJI = /\p{Extended_Pictographic}/u;
/** One emoji of a run of neighbouring emoji (a pictograph with its modifiers and ZWJ parts, a flag, a keycap). */
const ONE_EMOJI = /\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F\u{E0020}-\u{E007F}]*(?:\u200D\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F]*)*/gu;

function planSlide(ctx: PlanContext, slide: DeckSlide): SlideBuilder[] {
  // The registry is typed per layout; indexing it by a union loses the pairing, restored here.
  const planner = PLANNERS[slide.layout] as (c: PlanContext, s: DeckSlide) => SlideBuilder[];
  return planner(ctx, slide);
}

/** Every string a spec slide shows, for the emoji check. */
function slideStrings(slide: DeckSlide): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => k !== 'notes' && k !== 'image' && k !== 'layout' && walk(x));
  };
  walk(slide);
  return out;
}

/** Every string a planned slide draws: text, table cells, chart words. */
function drawnStrings(slide: PlannedSlide): string[] {
  return slide.elements.flatMap((el): string[] => {
    switch (el.kind) {
      case 'text':
        return el.paragraphs.map((p) => p.text);
      case 'table':
        return [...el.header, ...el.rows.flat()];
      case 'chart':
        return [el.title ?? '', el.xTitle ?? '', el.yTitle ?? '', ...el.categories, ...el.series.map((s) => s.name)];
      default:
        return [];
    }
  });
}

/** Emoji the installed emoji face cannot draw where the deck is checked (glyph coverage, outlines). */
function reportBlankEmoji(o: PlanOptions, report: SlideReport, strings: readonly string[]): void {
  const sequences = strings.flatMap((t) => splitEmoji(t).filter((p) => p.emoji).flatMap((p) => [...p.text.matchAll(ONE_EMOJI)].map((m) => m[0])));
  const blank = o.measurer.blankEmoji(sequences);
  const face = o.measurer.emojiFace() ?? '';
  const missing = blank.filter((b) => b.reason === 'missing').map((b) => b.emoji);
  const bitmap = blank.filter((b) => b.reason === 'bitmap').map((b) => b.emoji);
  if (missing.length > 0) report.add('emoji_font', `${missing.join(' ')}: not in ${face}, the installed emoji font: drawn as a box or left blank; use a Lucide icon or words`);
  if (bitmap.length > 0) {
    report.add('emoji_font', `${bitmap.join(' ')}: ${face} has them only as colour bitmaps, which LibreOffice's PDF export leaves blank (PowerPoint draws them); use a Lucide icon or words`);
  }
}

/**
 * "�" (U+FFFD) is what a decoder leaves where it could not read the bytes: drawn, it is a diamond
 * where a word was, and no font can help. Said once per slide, with where it is.
 */
function reportGarbled(report: SlideReport, strings: readonly string[]): void {
  const garbled = strings.filter((t) => t.includes('\uFFFD'));
  const first = garbled[0];
  if (first === undefined) return;
  const at = first.indexOf('\uFFFD');
  const excerpt = `${at > 12 ? '…' : ''}${first.slice(Math.max(0, at - 12), at + 13)}${at + 13 < first.length ? '…' : ''}`;
  const where = garbled.length === 1 ? 'a text' : `${garbled.length} texts`;
  report.add('garbled_text', `${where} on the slide hold "\uFFFD" (the mark of text read in the wrong encoding), e.g. "${excerpt}": it is drawn as a diamond where characters were lost; take the text again from its source`);
}

/** The template's slide-number place (clear of its logo), else Folio's. */
function numberBox(o: PlanOptions, folio: TextElement['box']): TextElement['box'] {
  const own = o.theme.template?.number;
  return own ? { x: own.x * o.size.w, y: own.y * o.size.h, w: own.w * o.size.w, h: own.h * o.size.h } : folio;
}

/** Folio's footer box, ending before a logo in the footer band. */
function footerBox(o: PlanOptions, folio: TextElement['box']): TextElement['box'] {
  const logo = o.theme.template?.logo;
  if (!logo) return folio;
  const lx = logo.x * o.size.w;
  const overlapsY = logo.y * o.size.h < folio.y + folio.h && (logo.y + logo.h) * o.size.h > folio.y;
  const rx = (logo.x + logo.w) * o.size.w;
  if (!overlapsY || rx <= folio.x || lx >= folio.x + folio.w) return folio;
  // The logo on the footer's left: start after it; else end before it.
  if (lx + rx < 2 * folio.x + folio.w) return { ...folio, x: rx + 0.15, w: Math.max(1, folio.x + folio.w - rx - 0.15) };
  return { ...folio, w: Math.max(1, lx - 0.15 - folio.x) };
}

function masterText(id: string, role: TextElement['role'], text: string, box: TextElement['box'], o: PlanOptions, align: TextElement['align']): TextElement {
  const p = o.theme.palette;
  return {
    kind: 'text',
    id,
    role,
    box,
    font: 'body',
    paragraphs: [{ text, level: 0, bullet: 'none', sizePt: o.theme.sizes.footer, bold: false, color: p.muted, spaceAfterPt: 0 }],
    align,
    valign: 'middle',
    lineHeight: 1.2,
    lines: 1,
    fromMaster: true,
  };
}

/**
 * Faces fontconfig answers with a metric-compatible twin: the slide keeps its line breaks and looks
 * the same, so it is not a fallback a person needs to hear about.
 */
const METRIC_TWINS: Record<string, string> = {
  arial: 'liberation sans', helvetica: 'liberation sans', 'times new roman': 'liberation serif', times: 'liberation serif',
  'courier new': 'liberation mono', courier: 'liberation mono', calibri: 'carlito', cambria: 'caladea',
};

function reportFonts(o: PlanOptions, report: SlideReport | undefined): 'font' | 'table' {
  const f = o.theme.fonts;
  const faces = [...new Set([f.latinHeading, f.latinBody, f.cjkHeading, f.cjkBody, ...(o.theme.template?.heroTitle.face ? [o.theme.template.heroTitle.face] : [])])];
  const sources = faces.map((face) => o.measurer.sourceOf(face));
  const tabled = faces.filter((_face, i) => sources[i]?.kind === 'table');
  if (tabled.length > 0) {
    report?.add('font_fallback', `text measured with width tables for ${tabled.join(', ')} (font files not found): line breaks are estimates`);
  }
  // A face the theme (or a template) names that this machine lacks: fontconfig substitutes another,
  // which is what LibreOffice draws and what the text was measured with.
  for (const source of sources) {
    if (source.kind !== 'font' || !source.family) continue;
    const asked = source.face.toLowerCase();
    const got = source.family.toLowerCase();
    if (got === asked || METRIC_TWINS[asked] === got) continue;
    report?.add('font_fallback', `the font "${source.face}" is not installed: text is set in ${source.family} instead (install "${source.face}", or the file looks different in PowerPoint)`);
  }
  return tabled.length > 0 ? 'table' : 'font';
}

export function planDeck(written: DeckSpec, o: PlanOptions): { plan: DeckPlan; report: QualityReport } {
  const spec = typesetSpec(written);
  const reports = new ReportBuilder();
  const slides: PlannedSlide[] = [];
  const footer = footerText(spec, o.theme);
  const regions = footerRegion(o.size);
  let firstReport: SlideReport | undefined;
  spec.slides.forEach((slide, index) => {
    const report = reports.begin(index);
    firstReport ??= report;
    const ctx: PlanContext = { ...o, spec, index, report };
    const strings = slideStrings(slide);
    reportGarbled(report, strings);
    const built = planSlide(ctx, slide).map((builder, part) => {
      const out = builder.build(index, part === 0 ? slide.notes : undefined);
      if (slide.id !== undefined) out.slide_id = slide.id;
      const number = slides.length + part + 1;
      report.addOutputSlide(number);
      if (out.master === 'content') {
        // One footer: a template that prints its own keeps it, and Folio's is not drawn over it.
        if (footer && !o.theme.template?.ownFooter) {
          out.elements.push(masterText('footer', 'footer', footer, footerBox(o, regions.text), o, 'left'));
          if (!o.theme.template) report.checkContrast('footer', o.theme.palette.muted, out.background);
        }
        if (o.theme.master.slideNumber) out.elements.push(masterText('slide-number', 'number', String(number), numberBox(o, regions.number), o, 'right'));
      }
      followTemplateBackdrops(out, slide.layout, o.theme, o.size, report);
      writeLinesIn(o, out);
      return out;
    });
    // What the slides draw, not only what the spec slide holds: a cover sets the deck's title, content slides the footer.
    const shown = [...strings, ...built.flatMap(drawnStrings)];
    if (shown.some((t) => EMOJI.test(t))) {
      if (o.measurer.emojiFace() === null) report.add('emoji_font', 'the slide has emoji but no colour emoji font is installed: they may show as boxes or plain symbols');
      else reportBlankEmoji(o, report, shown);
    }
    slides.push(...built);
  });
  const metrics = reportFonts(o, firstReport);
  const plan: DeckPlan = { size: { w: o.size.w, h: o.size.h }, theme: o.theme.name, slides, metrics };
  return { plan, report: reports.build(slides.length) };
}
