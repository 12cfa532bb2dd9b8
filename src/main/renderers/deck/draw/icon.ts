// Draws a planned icon element into the .pptx. (Placeholder until the icon drawer lands.)
import { type IconElement } from '../../../../shared/specs/deck-plan';
import { type DrawContext } from './context';

export function drawIcon(ctx: DrawContext, el: IconElement): void {
  void ctx;
  throw new Error(`drawIcon is not implemented yet (${el.id})`);
}
