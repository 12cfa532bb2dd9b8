// Text on an imported template is read against what the template paints behind it (its title bar,
// a band, the layout's background), not against the slide's nominal background: every text element
// not sitting on a shape Folio drew is checked there, at WCAG's thresholds, and set in a colour that
// reads when the planned one does not. The report records each check against the real backdrop.
import { type DeckLayout } from '../../../../shared/specs/deck';
import { type PlannedSlide, type ShapeElement, type TextElement } from '../../../../shared/specs/deck-plan';
import { coloursUnder } from '../templates/picture-samples';
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

/** The lowest contrast of `color` on any of `backgrounds`. */
const worst = (color: string, backgrounds: readonly string[]): number => Math.min(...backgrounds.map((bg) => contrastRatio(color, bg)));

/** Inches a scrim reaches past the text it sits under. */
const SCRIM_PAD = 0.12;

/**
 * Text on a template picture, read against the picture's own colours under its box (sampled at
 * import): kept when it reads on all of them, else set in the candidate that reads best there, else
 * given a scrim (a panel of Folio's behind the text) in the colour it reads on. Returns the scrim.
 */
function followPicture(el: TextElement, colours: readonly string[], candidates: readonly (string | undefined)[], report: SlideReport): ShapeElement | undefined {
  let scrim: ShapeElement | undefined;
  el.paragraphs = el.paragraphs.map((para) => {
    const needed = isLargeText(para.sizePt, para.bold) ? MIN_LARGE_TEXT_CONTRAST : MIN_TEXT_CONTRAST;
    if (scrim?.fill) {
      const color = contrastRatio(para.color, scrim.fill) >= needed ? para.color : readable(scrim.fill, candidates, needed);
      report.checkContrast(`${el.role} on a scrim over the picture`, color, scrim.fill, { sizePt: para.sizePt, bold: para.bold });
      return color === para.color ? para : { ...para, color };
    }
    if (worst(para.color, colours) >= needed) return para;
    const best = [...candidates, 'FFFFFF', '000000'].filter((c): c is string => Boolean(c)).sort((a, b) => worst(b, colours) - worst(a, colours))[0] ?? 'FFFFFF';
    if (worst(best, colours) >= needed) {
      const darkest = [...colours].sort((a, b) => contrastRatio(best, a) - contrastRatio(best, b))[0] ?? colours[0] ?? 'FFFFFF';
      report.checkContrast(`${el.role} on the picture`, best, darkest, { sizePt: para.sizePt, bold: para.bold });
      return { ...para, color: best };
    }
    // Nothing reads on every part of the picture under the text: a panel behind it, dark under light text.
    const fill = contrastRatio(para.color, '000000') >= contrastRatio(para.color, 'FFFFFF') ? '1A1A1A' : 'FFFFFF';
    scrim = { kind: 'shape', id: `${el.id}-scrim`, shape: 'rect', box: { x: el.box.x - SCRIM_PAD, y: el.box.y - SCRIM_PAD, w: el.box.w + 2 * SCRIM_PAD, h: el.box.h + 2 * SCRIM_PAD }, fill };
    const color = contrastRatio(para.color, fill) >= needed ? para.color : readable(fill, candidates, needed);
    report.checkContrast(`${el.role} on a scrim over the picture`, color, fill, { sizePt: para.sizePt, bold: para.bold });
    return color === para.color ? para : { ...para, color };
  });
  return scrim;
}

export function followTemplateBackdrops(slide: PlannedSlide, layout: DeckLayout | undefined, theme: Theme, size: SlideSize, report: SlideReport): void {
  const kind = backdropKind(layout, slide.master);
  const backdrops = kind ? theme.template?.backdrops[kind] : undefined;
  if (!backdrops) return;
  const p = theme.palette;
  const scrims: { before: TextElement; scrim: ShapeElement }[] = [];
  slide.elements.forEach((el, index) => {
    if (el.kind !== 'text' || onFolioShape(slide, index, el)) return;
    const box = { x: el.box.x / size.w, y: el.box.y / size.h, w: el.box.w / size.w, h: el.box.h / size.h };
    const behind = backdropBehind(backdrops, box);
    if (behind && behind.color === null && behind.samples) {
      const colours = coloursUnder(behind.samples, behind, box);
      const scrim = colours.length > 0 ? followPicture(el, colours, [theme.template?.title.color, p.titleText, p.text, p.titleMuted, p.muted], report) : undefined;
      if (scrim) scrims.push({ before: el, scrim });
      return;
    }
    if (!behind?.color) return;
    const bg = behind.color;
    el.paragraphs = el.paragraphs.map((para) => {
      const needed = isLargeText(para.sizePt, para.bold) ? MIN_LARGE_TEXT_CONTRAST : MIN_TEXT_CONTRAST;
      // A colour the template chose for its titles or subtitles is kept at WCAG's large-text 3:1; a colour Folio
      // chose for another background (dark body text on a green title layout) must read at 4.5:1.
      const own = para.color === theme.template?.title.color || para.color === p.titleText || para.color === theme.template?.subtitle?.color;
      const keep = own ? needed : Math.max(needed, MIN_TEXT_CONTRAST);
      const color = contrastRatio(para.color, bg) >= keep ? para.color : readable(bg, [theme.template?.title.color, p.titleText, p.text, p.titleMuted, p.muted], needed);
      report.checkContrast(el.role, color, bg, { sizePt: para.sizePt, bold: para.bold });
      return color === para.color ? para : { ...para, color };
    });
  });
  // A scrim is drawn just before its text, so it is behind it and over the template only.
  for (const { before, scrim } of scrims) slide.elements.splice(slide.elements.indexOf(before), 0, scrim);
}
