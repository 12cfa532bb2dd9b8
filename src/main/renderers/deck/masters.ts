// Slide masters: content slides carry the footer and slide number (at the footer band of
// deck-geometry, as the plan's master elements say); hero slides use a plain master.
import type PptxGenJS from 'pptxgenjs';
import { containsCjk } from '../../../shared/specs/deck';
import { footerRegion, type SlideSize } from '../../../shared/specs/deck-geometry';
import { fontFaceFor, type Theme } from '../../../shared/specs/themes';
import { LATIN_LANG } from './text-runs';

export const MASTER_CONTENT = 'FOLIO_CONTENT';
export const MASTER_PLAIN = 'FOLIO_PLAIN';

export function defineMasters(pptx: PptxGenJS, theme: Theme, size: SlideSize, footer: string, cjkLang: string): void {
  const p = theme.palette;
  const region = footerRegion(size);
  const objects: NonNullable<PptxGenJS.SlideMasterProps['objects']> = [];
  if (footer) {
    const cjk = containsCjk(footer);
    objects.push({
      text: {
        text: footer,
        options: { ...region.text, margin: 0, fontFace: fontFaceFor(theme, 'body', cjk), fontSize: theme.sizes.footer, color: p.muted, valign: 'middle', lang: cjk ? cjkLang : LATIN_LANG },
      },
    });
  }
  pptx.defineSlideMaster({
    title: MASTER_CONTENT,
    background: { color: p.background },
    objects,
    ...(theme.master.slideNumber
      ? {
          slideNumber: { ...region.number, fontFace: theme.fonts.latinBody, fontSize: theme.sizes.footer, color: p.muted, align: 'right', valign: 'middle', margin: 0 },
        }
      : {}),
  });
  pptx.defineSlideMaster({ title: MASTER_PLAIN, background: { color: p.titleBackground } });
}
