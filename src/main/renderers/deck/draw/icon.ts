// Draws a planned icon as an SVG picture (vector, so crisp at any size; PowerPoint 2016+ and
// LibreOffice render the SVG). pptxgenjs cannot rasterise in Node, so the PNG fallback it pairs with
// an SVG for older clients is its stock placeholder.
import { ValidationError } from '../../../../shared/errors';
import { type IconElement } from '../../../../shared/specs/deck-plan';
import { iconSvgMarkup } from '../../../../shared/specs/icon-svg';
import { iconNode } from '../icons';
import { type DrawContext } from './context';

/** SVG width/height in CSS pixels: 96 per inch, so the picture's intrinsic size is its slide size. */
const PX_PER_IN = 96;

export function drawIcon(ctx: DrawContext, el: IconElement): void {
  const node = iconNode(el.name);
  // Validation rejects unknown names before planning, so this is a plan built without it.
  if (!node) throw new ValidationError(`${el.id}: unknown icon "${el.name}"`);
  const side = Math.min(el.box.w, el.box.h);
  const svg = iconSvgMarkup(node, el.color, Math.round(side * PX_PER_IN));
  ctx.slide.addImage({
    data: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`,
    x: el.box.x + (el.box.w - side) / 2,
    y: el.box.y + (el.box.h - side) / 2,
    w: side,
    h: side,
    altText: el.name,
  });
}
