// Draws a planned chart element into the .pptx. (Placeholder until the chart drawer lands.)
import { type ChartElement } from '../../../../shared/specs/deck-plan';
import { type DrawContext } from './context';

export function drawChart(ctx: DrawContext, el: ChartElement): void {
  void ctx;
  throw new Error(`drawChart is not implemented yet (${el.id})`);
}
