// Draws a deck plan into a pptxgenjs presentation: one slide per planned slide, on its master,
// every element in plan order (the reading order). Master elements (footer, slide number) are the
// master's own and are not drawn again.
import type PptxGenJS from 'pptxgenjs';
import { assertNever, type DeckPlan, type PlanElement, type TextElement } from '../../../../shared/specs/deck-plan';
import { type Theme } from '../../../../shared/specs/themes';
import { MASTER_CONTENT, MASTER_PLAIN } from '../masters';
import { type TextMeasurer } from '../../typesetting/text-measurer';
import { drawChart } from './chart';
import { type DrawContext } from './context';
import { drawIcon } from './icon';
import { drawImage } from './image';
import { drawShape } from './shape';
import { drawTable } from './table';
import { drawText, headingElementId } from './text';

function drawElement(ctx: DrawContext, el: PlanElement, onTemplate: boolean, headingId: string | undefined): void {
  switch (el.kind) {
    case 'text':
      if (!el.fromMaster) drawText(ctx, el, el.id === headingId);
      // A template's master replaces Folio's, which drew these: the slide carries them itself.
      else if (onTemplate) drawMasterText(ctx, el);
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
  /** The measurer the plan was made with: CJK paragraphs are drawn with its line breaks. */
  measurer: TextMeasurer;
  /**
   * The deck goes onto a template's master (templates/graft.ts): slides leave the background to it
   * and draw the footer and slide number Folio's master would have drawn.
   */
  onTemplate?: boolean;
}

/** The footer as text; the slide number as a field, so it follows the slide when slides are moved. */
function drawMasterText(ctx: DrawContext, el: TextElement): void {
  if (el.role !== 'number') return drawText(ctx, el);
  const p = el.paragraphs[0];
  ctx.slide.slideNumber = {
    ...el.box, margin: 0, align: el.align === 'justify' ? 'left' : el.align, valign: el.valign,
    fontFace: ctx.theme.fonts.latinBody, fontSize: p?.sizePt ?? ctx.theme.sizes.footer, color: p?.color ?? ctx.theme.palette.muted,
  };
}

export function drawPlan(pptx: PptxGenJS, plan: DeckPlan, o: DrawPlanOptions): void {
  for (const planned of plan.slides) {
    const slide = pptx.addSlide({ masterName: planned.master === 'content' ? MASTER_CONTENT : MASTER_PLAIN });
    if (!o.onTemplate) slide.background = { color: planned.background };
    const ctx: DrawContext = { pptx, slide, theme: o.theme, cjkLang: o.cjkLang, baseDir: o.baseDir, emojiFace: o.emojiFace, measurer: o.measurer };
    const headingId = headingElementId(planned.elements.filter((e) => !(e.kind === 'text' && e.fromMaster)));
    for (const el of planned.elements) drawElement(ctx, el, o.onTemplate === true, headingId);
    if (planned.notes) slide.addNotes(planned.notes);
  }
}
