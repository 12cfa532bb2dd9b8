// The rendered-slide check's input from the plan: each output slide's boxes with their roles and
// the text the plan put in them (words read back from the PDF are matched to boxes by it).
import { legendEntries } from '../../../../shared/specs/chart-order';
import { assertNever, type ChartElement, type DeckPlan, type PlanElement, type TextRole } from '../../../../shared/specs/deck-plan';
import { footerBand, slideSize } from '../../../../shared/specs/deck-geometry';
import { type PlannedBox, type PlannedBoxRole, type VerifyInput } from '../verify/types';

const TEXT_ROLE_BOX: Record<TextRole, PlannedBoxRole> = {
  title: 'title',
  subtitle: 'body',
  body: 'body',
  caption: 'caption',
  label: 'label',
  stat: 'body',
  quote: 'body',
  attribution: 'caption',
  footer: 'footer',
  number: 'number',
};

function seriesNamesDrawn(el: ChartElement): string[] {
  return el.type === 'pie' || el.type === 'doughnut' ? [] : legendEntries(el).map((e) => e.name);
}

function boxOf(el: PlanElement): PlannedBox {
  const { id, box } = el;
  switch (el.kind) {
    case 'text':
      return { id, role: TEXT_ROLE_BOX[el.role], ...box, text: el.paragraphs.map((p) => p.text).join('\n') };
    case 'shape':
      return { id, role: 'decoration', ...box };
    case 'icon':
      return { id, role: 'decoration', ...box };
    case 'image':
      return { id, role: 'image', ...box, ...(el.pixels ? { pixels: el.pixels } : {}) };
    case 'chart':
      // Series names are drawn only in a legend (a single series has none); pie legends repeat the categories.
      return { id, role: 'chart', ...box, text: [el.title ?? '', ...el.categories, ...seriesNamesDrawn(el), el.xTitle ?? '', el.yTitle ?? ''].filter(Boolean).join('\n') };
    case 'table':
      return { id, role: 'table', ...box, text: [el.header, ...el.rows].map((r) => r.join('\n')).join('\n'), cuts: el.colWidths.slice(0, -1).map((_, i) => box.x + el.colWidths.slice(0, i + 1).reduce((a, b) => a + b, 0)) };
    default:
      return assertNever(el, 'plan element');
  }
}

/** Boxes per output slide, numbered as in the .pptx. */
export function planToVerifyInput(plan: DeckPlan): VerifyInput['slides'] {
  return plan.slides.map((slide, i) => ({
    number: i + 1,
    sourceIndex: slide.source_index,
    boxes: slide.elements.map(boxOf),
    footerBand: slide.master === 'content',
  }));
}

/** Top of the footer band of a plan's slides, inches (VerifyInput.footerTop). */
export function planFooterTop(plan: DeckPlan): number {
  const size = slideSize(plan.size.w < 12 ? '4:3' : '16:9');
  return footerBand({ ...size, w: plan.size.w, h: plan.size.h }).y;
}
