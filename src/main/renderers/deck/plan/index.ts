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

function reportFonts(o: PlanOptions, report: SlideReport | undefined): 'font' | 'table' {
  const f = o.theme.fonts;
  const faces = [...new Set([f.latinHeading, f.latinBody, f.cjkHeading, f.cjkBody])];
  const tabled = faces.filter((face) => o.measurer.sourceOf(face).kind === 'table');
  if (tabled.length > 0) {
    report?.add('font_fallback', `text measured with width tables for ${tabled.join(', ')} (font files not found): line breaks are estimates`);
  }
  return tabled.length > 0 ? 'table' : 'font';
}

export function planDeck(spec: DeckSpec, o: PlanOptions): { plan: DeckPlan; report: QualityReport } {
  const reports = new ReportBuilder();
  const slides: PlannedSlide[] = [];
  const footer = spec.footer ?? o.theme.master.footer;
  const regions = footerRegion(o.size);
  let firstReport: SlideReport | undefined;
  spec.slides.forEach((slide, index) => {
    const report = reports.begin(index);
    firstReport ??= report;
    const ctx: PlanContext = { ...o, spec, index, report };
    const strings = slideStrings(slide);
    if (strings.some((t) => EMOJI.test(t))) {
      if (o.measurer.emojiFace() === null) report.add('emoji_font', 'the slide has emoji but no colour emoji font is installed: they may show as boxes or plain symbols');
      else reportBlankEmoji(o, report, strings);
    }
    planSlide(ctx, slide).forEach((builder, part) => {
      const built = builder.build(index, part === 0 ? slide.notes : undefined);
      if (slide.id !== undefined) built.slide_id = slide.id;
      const number = slides.length + 1;
      report.addOutputSlide(number);
      if (built.master === 'content') {
        if (footer) {
          built.elements.push(masterText('footer', 'footer', footer, regions.text, o, 'left'));
          report.checkContrast('footer', o.theme.palette.muted, built.background);
        }
        if (o.theme.master.slideNumber) built.elements.push(masterText('slide-number', 'number', String(number), regions.number, o, 'right'));
      }
      slides.push(built);
    });
  });
  const metrics = reportFonts(o, firstReport);
  const plan: DeckPlan = { size: { w: o.size.w, h: o.size.h }, theme: o.theme.name, slides, metrics };
  return { plan, report: reports.build(slides.length) };
}
