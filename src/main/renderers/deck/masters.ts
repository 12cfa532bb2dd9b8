// Slide masters: content slides carry the footer and slide number; title/section/closing slides
// use a plain master and paint their own background.
import type PptxGenJS from 'pptxgenjs';
import { containsCjk } from '../../../shared/specs/deck';
import { fontFaceFor, type Theme } from '../../../shared/specs/themes';
import { footerRegion, type SlideSize } from './geometry';
import { MASTER_CONTENT, MASTER_PLAIN } from './slide-kit';

export function defineMasters(pptx: PptxGenJS, theme: Theme, size: SlideSize, footer: string): void {
  const p = theme.palette;
  const region = footerRegion(size);
  const objects: NonNullable<PptxGenJS.SlideMasterProps['objects']> = [];
  if (footer) {
    objects.push({
      text: {
        text: footer,
        options: {
          ...region.text,
          margin: 0,
          fontFace: fontFaceFor(theme, 'body', containsCjk(footer)),
          fontSize: theme.sizes.footer,
          color: p.muted,
          valign: 'middle',
          lang: containsCjk(footer) ? 'zh-CN' : 'en-US',
        },
      },
    });
  }
  pptx.defineSlideMaster({
    title: MASTER_CONTENT,
    background: { color: p.background },
    objects,
    ...(theme.master.slideNumber
      ? {
          slideNumber: {
            ...region.number,
            fontFace: theme.fonts.latinBody,
            fontSize: theme.sizes.footer,
            color: p.muted,
            align: 'right',
            valign: 'middle',
            margin: 0,
          },
        }
      : {}),
  });
  pptx.defineSlideMaster({ title: MASTER_PLAIN, background: { color: p.titleBackground } });
}
