// Draws a planned table element into the .pptx. (Placeholder until the table drawer lands.)
import { type TableElement } from '../../../../shared/specs/deck-plan';
import { type DrawContext } from './context';

export function drawTable(ctx: DrawContext, el: TableElement): void {
  void ctx;
  throw new Error(`drawTable is not implemented yet (${el.id})`);
}
