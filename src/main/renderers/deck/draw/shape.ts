// Draws a planned shape (marks, bands, panels, connectors).
import type PptxGenJS from 'pptxgenjs';
import { type ShapeElement } from '../../../../shared/specs/deck-plan';
import { type DrawContext } from './context';

export function drawShape(ctx: DrawContext, el: ShapeElement): void {
  const opts: PptxGenJS.ShapeProps = {
    ...el.box,
    fill: el.fill ? { color: el.fill } : { type: 'none' },
    line: el.line ? { color: el.line.color, width: el.line.widthPt } : { type: 'none' },
    objectName: el.id,
  };
  if (el.shape === 'roundRect' && el.radius !== undefined) opts.rectRadius = el.radius;
  ctx.slide.addShape(el.shape, opts);
}
