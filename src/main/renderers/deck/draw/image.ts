// Draws a planned picture: `contain` boxes already have the picture's shape; `cover` crops it to
// the box (pptxgenjs crops from the picture's own proportions, given as w/h).
import { basename } from 'node:path';
import { type ImageElement } from '../../../../shared/specs/deck-plan';
import { loadImage } from '../images';
import { type DrawContext } from './context';

export function drawImage(ctx: DrawContext, el: ImageElement): void {
  const img = loadImage(ctx.baseDir, el.path);
  // The planner found the picture; one that vanished since is left out rather than drawn wrong.
  if (!img.ok) return;
  const altText = basename(el.path);
  if (el.fit === 'contain') {
    ctx.slide.addImage({ data: img.data, ...el.box, altText, objectName: el.id });
    return;
  }
  const scale = Math.max(el.box.w / img.info.width, el.box.h / img.info.height);
  ctx.slide.addImage({
    data: img.data,
    x: el.box.x,
    y: el.box.y,
    w: img.info.width * scale,
    h: img.info.height * scale,
    sizing: { type: 'cover', w: el.box.w, h: el.box.h },
    altText,
    objectName: el.id,
  });
}
