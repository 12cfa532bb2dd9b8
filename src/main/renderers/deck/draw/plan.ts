// Draws a deck plan into a pptxgenjs presentation: one slide per planned slide, on its master,
// every element in plan order (the reading order). Master elements (footer, slide number) are the
// master's own and are not drawn again.
import type PptxGenJS from 'pptxgenjs';
import { assertNever, type DeckPlan, type PlanElement } from '../../../../shared/specs/deck-plan';
import { type Theme } from '../../../../shared/specs/themes';
import { MASTER_CONTENT, MASTER_PLAIN } from '../masters';
import { drawChart } from './chart';
import { type DrawContext } from './context';
import { drawIcon } from './icon';
import { drawImage } from './image';
import { drawShape } from './shape';
import { drawTable } from './table';
import { drawText } from './text';

function drawElement(ctx: DrawContext, el: PlanElement): void {
  switch (el.kind) {
    case 'text':
      if (!el.fromMaster) drawText(ctx, el);
      return;
    case 'shape':
      return drawShape(ctx, el);
    case 'image':
      return drawImage(ctx, el);
    case 'icon':
      return drawIcon(ctx, el);
    case 'chart':
      return drawChart(ctx, el);
    case 'table':
      return drawTable(ctx, el);
    default:
      return assertNever(el, 'plan element');
  }
}

export interface DrawPlanOptions {
  theme: Theme;
  cjkLang: string;
  baseDir: string;
  /** The colour emoji face (TextMeasurer.emojiFace()), or null when none is installed. */
  emojiFace: string | null;
}

export function drawPlan(pptx: PptxGenJS, plan: DeckPlan, o: DrawPlanOptions): void {
  for (const planned of plan.slides) {
    const slide = pptx.addSlide({ masterName: planned.master === 'content' ? MASTER_CONTENT : MASTER_PLAIN });
    slide.background = { color: planned.background };
    const ctx: DrawContext = { pptx, slide, theme: o.theme, cjkLang: o.cjkLang, baseDir: o.baseDir, emojiFace: o.emojiFace };
    for (const el of planned.elements) drawElement(ctx, el);
    if (planned.notes) slide.addNotes(planned.notes);
  }
}
