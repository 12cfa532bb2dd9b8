// Text on an imported template is read against what the template paints behind it (its title bar,
// a band, the layout's background), not against the slide's nominal background: every text element
// not sitting on a shape Folio drew is checked there, at WCAG's thresholds, and set in a colour that
// reads when the planned one does not. The report records each check against the real backdrop.
import { type DeckLayout } from '../../../../shared/specs/deck';
import { type PlannedSlide, type TextElement } from '../../../../shared/specs/deck-plan';
import { type SlideSize } from '../../../../shared/specs/deck-geometry';
import { backdropBehind, contrastRatio, MIN_LARGE_TEXT_CONTRAST, MIN_TEXT_CONTRAST, type Theme } from '../../../../shared/specs/themes';
import { isLargeText, type SlideReport } from '../report';

type BackdropKind = keyof NonNullable<Theme['template']>['backdrops'];

/** Which template layout's paint a planned slide sits on (as templates/slide-layouts.ts maps them). */
export function backdropKind(layout: DeckLayout | undefined, master: PlannedSlide['master']): BackdropKind | undefined {
  if (layout === 'title' || layout === 'closing') return 'title';
  if (layout === 'section') return 'section';
  if (layout === 'full_image') return undefined;
  return master === 'content' ? 'content' : undefined;
}

const inside = (x: number, y: number, b: { x: number; y: number; w: number; h: number }): boolean => x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;

/** Whether a shape Folio drew before `index` lies under the element's centre (a card, a panel): it is read on that. */
function onFolioShape(slide: PlannedSlide, index: number, el: TextElement): boolean {
  const cx = el.box.x + el.box.w / 2;
  const cy = el.box.y + el.box.h / 2;
  return slide.elements.slice(0, index).some((e) => (e.kind === 'shape' && e.fill !== undefined) || e.kind === 'image' ? inside(cx, cy, e.box) : false);
}

function readable(bg: string, candidates: readonly (string | undefined)[], needed: number): string {
  for (const c of candidates) if (c && contrastRatio(c, bg) >= needed) return c;
  return contrastRatio('000000', bg) >= contrastRatio('FFFFFF', bg) ? '000000' : 'FFFFFF';
}

export function followTemplateBackdrops(slide: PlannedSlide, layout: DeckLayout | undefined, theme: Theme, size: SlideSize, report: SlideReport): void {
  const kind = backdropKind(layout, slide.master);
  const backdrops = kind ? theme.template?.backdrops[kind] : undefined;
  if (!backdrops) return;
  const p = theme.palette;
  slide.elements.forEach((el, index) => {
    if (el.kind !== 'text' || onFolioShape(slide, index, el)) return;
    const behind = backdropBehind(backdrops, { x: el.box.x / size.w, y: el.box.y / size.h, w: el.box.w / size.w, h: el.box.h / size.h });
    if (!behind?.color) return;
    const bg = behind.color;
    el.paragraphs = el.paragraphs.map((para) => {
      const needed = isLargeText(para.sizePt, para.bold) ? MIN_LARGE_TEXT_CONTRAST : MIN_TEXT_CONTRAST;
      // A colour the template chose for its titles is kept at WCAG's large-text 3:1; a colour Folio
      // chose for another background (dark body text on a green title layout) must read at 4.5:1.
      const own = para.color === theme.template?.title.color || para.color === p.titleText;
      const keep = own ? needed : Math.max(needed, MIN_TEXT_CONTRAST);
      const color = contrastRatio(para.color, bg) >= keep ? para.color : readable(bg, [theme.template?.title.color, p.titleText, p.text, p.titleMuted, p.muted], needed);
      report.checkContrast(el.role, color, bg, { sizePt: para.sizePt, bold: para.bold });
      return color === para.color ? para : { ...para, color };
    });
  });
}
