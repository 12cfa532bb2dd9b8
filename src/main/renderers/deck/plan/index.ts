// The layout engine: a validated spec + theme + measured text → the deck plan (every output slide as
// positioned elements) and the quality report of every compromise made on the way. Computed once;
// the .pptx drawer and the in-app preview both draw the plan.
import { type DeckSlide, type DeckSpec, type QualityReport } from '../../../../shared/specs/deck';
import { type DeckPlan, type PlannedSlide, type TextElement } from '../../../../shared/specs/deck-plan';
import { footerRegion } from '../../../../shared/specs/deck-geometry';
import { ReportBuilder, type SlideReport } from '../report';
import { type PlanContext, type PlanOptions, type SlideBuilder } from './context';
import { PLANNERS } from './registry';

export type { PlanOptions } from './context';

const EMOJI = /\p{Extended_Pictographic}/u;

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
    if (strings.some((t) => EMOJI.test(t)) && o.measurer.emojiFace() === null) {
      report.add('emoji_font', 'the slide has emoji but no colour emoji font is installed: they may show as boxes or plain symbols');
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
