// Text in a template's placeholders takes the placeholder's style from the template, as a brand team
// expects: a run property the layout (through its master) already gives the same value is left out of
// the slide, so PowerPoint and LibreOffice draw it from the template, and a person who restyles the
// master restyles the deck. Only what Folio chose differently stays on the run: a size shrunk to fit,
// a colour replaced because the template's does not read on what is behind it, a CJK face.
import type { Document, Element } from '@xmldom/xmldom';
import { containsCjk } from '../../../../shared/specs/deck-text';
import { type TemplateBullet, type TemplateTextStyle } from '../../../../shared/specs/themes';
import { bodyPlaceholderOf, placeholderOf, subtitlePlaceholderOf } from './paint';
import { children, NS, shapeBox } from './ooxml';

const ALGN: Record<NonNullable<TemplateTextStyle['align']>, string> = { left: 'l', center: 'ctr', right: 'r' };

/** A slide's title shape (`<p:ph type="title"/>`, as post-process.ts marks it), not crossing into another shape. */
const TITLE_SP = /<p:sp>(?:(?!<\/p:sp>)[\s\S])*?<p:ph type="title"\/>[\s\S]*?<\/p:sp>/;
const RUN = /<a:r>(<a:rPr\b[^>]*?(?:\/>|>[\s\S]*?<\/a:rPr>))(<a:t>[\s\S]*?<\/a:t>)?/g;
const END_PROPS = /<a:endParaRPr\b[^>]*?(?:\/>|>[\s\S]*?<\/a:endParaRPr>)/g;

const sameHex = (a: string | undefined, b: string | undefined): boolean => a !== undefined && b !== undefined && a.toUpperCase() === b.toUpperCase();

/** A run's properties without what `style` gives the same. `text`: the run's text (a CJK run keeps its faces). */
function inheritRunProps(props: string, style: TemplateTextStyle, text: string): string {
  let out = props;
  const sz = /\ssz="(\d+)"/.exec(out);
  if (sz && style.sizePt !== undefined && Number(sz[1]) === Math.round(style.sizePt * 100)) out = out.replace(sz[0], '');
  if (style.bold === true) out = out.replace(/\sb="1"/, '');
  const fill = /<a:solidFill><a:srgbClr val="([0-9A-Fa-f]{6})"\/><\/a:solidFill>/.exec(out);
  if (fill && sameHex(fill[1], style.color)) out = out.replace(fill[0], '');
  const latin = /<a:latin typeface="([^"]*)"[^>]*\/>/.exec(out);
  if (latin && style.face !== undefined && latin[1] === style.face && !containsCjk(text)) {
    out = out.replace(/<a:(latin|ea|cs) typeface="[^"]*"[^>]*\/>/g, '');
  }
  // An `<a:rPr …></a:rPr>` left empty is written as an empty element.
  return out.replace(/^(<a:rPr\b[^>]*?)>\s*<\/a:rPr>$/, '$1/>');
}

/** A shape's runs and paragraphs without what `style` gives alike (run size, colour, face, bold; paragraph alignment). */
function inheritShapeStyle(sp: string, style: TemplateTextStyle): string {
  let out = sp.replace(RUN, (_m, props: string, t: string | undefined) => `<a:r>${inheritRunProps(props, style, t ?? '')}${t ?? ''}`);
  out = out.replace(END_PROPS, (props) => inheritRunProps(props, style, ''));
  const algn = style.align ? ALGN[style.align] : undefined;
  if (algn) out = out.replace(new RegExp(`(<a:pPr\\b[^>]*?)\\salgn="${algn}"`, 'g'), '$1');
  return out;
}

/**
 * The title placeholder of a slide on a template layout: run properties (size, colour, face, bold)
 * and paragraph alignment the layout's title style gives alike are left to it, and the placeholder
 * is the layout's kind (a centred title on a title layout), so the slide inherits from the right one.
 */
export function inheritTitleStyle(slideXml: string, style: TemplateTextStyle, phType: 'title' | 'ctrTitle'): string {
  return slideXml.replace(TITLE_SP, (sp) => inheritShapeStyle(sp.replace('<p:ph type="title"/>', `<p:ph type="${phType}"/>`), style));
}

/** The shape Folio drew a plan text element in (named after the element: `body`, `left`), not yet a placeholder. */
const textShape = (name: string): RegExp =>
  new RegExp(`<p:sp><p:nvSpPr><p:cNvPr id="\\d+" name="${name}"[^>]*?(?:/>|>[\\s\\S]*?</p:cNvPr>)<p:cNvSpPr(?: txBox="1")?/><p:nvPr></p:nvPr>[\\s\\S]*?</p:sp>`);

/**
 * The body text box of a slide on a template layout becomes that layout's body placeholder (`idx`):
 * run and paragraph properties its body style gives alike are left to it. What Folio measured the fit
 * with stays written on the slide (exact line spacing, indents, space after, bullets), so the
 * template's own spacing cannot push the text out of the box it was fitted to.
 */
export function inheritBodyStyle(slideXml: string, style: TemplateTextStyle, idx: string, shapeName = 'body', phType: 'body' | 'subTitle' = 'body', bullets: readonly TemplateBullet[] = []): string {
  return slideXml.replace(textShape(shapeName), (sp) => {
    const marked = sp.replace(/<p:cNvSpPr(?: txBox="1")?\/><p:nvPr><\/p:nvPr>/, `<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="${phType}" idx="${idx}"/></p:nvPr>`);
    // Sub-bullets inherit the template's level-2 style, not level 1's: their size stays written.
    const { sizePt: _level1Size, ...anyLevel } = style;
    const paragraphs = keepMeasuredSpacing(marked).replace(/<a:p>[\s\S]*?<\/a:p>/g, (p) =>
      inheritBullet(inheritShapeStyle(p, /^<a:p><a:pPr\b[^>]*\slvl="[1-8]"/.test(p) ? anyLevel : style), bullets),
    );
    // The layout's autofit (PowerPoint's shrink on overflow) is not inherited: Folio fitted the text.
    return paragraphs.replace(/(<a:bodyPr\b[^>]*?)(?:\/>|>(\s*)<\/a:bodyPr>)/, '$1><a:noAutofit/></a:bodyPr>');
  });
}

const EMU_PER_PT = 12700;

/**
 * A bulleted paragraph whose level the template gives a bullet character takes the template's
 * character and indent: Folio's are left off. Only where the margin written is the template's
 * (the planner measured the text from it), so the text keeps the width it was fitted to.
 */
function inheritBullet(p: string, bullets: readonly TemplateBullet[]): string {
  return p.replace(/^<a:p><a:pPr\b([^>]*?)>([\s\S]*?)<\/a:pPr>/, (whole, attrs: string, inner: string) => {
    if (!/<a:buChar\b/.test(inner)) return whole;
    const bullet = bullets[Number(/\slvl="(\d)"/.exec(attrs)?.[1] ?? 0)];
    const marL = Number(/\smarL="(\d+)"/.exec(attrs)?.[1] ?? NaN);
    if (!bullet?.char || Math.abs(marL - bullet.marginPt * EMU_PER_PT) > EMU_PER_PT / 2) return whole;
    const kept = attrs.replace(/\s(?:marL|indent)="-?\d+"/g, '');
    return `<a:p><a:pPr${kept}>${inner.replace(/<a:bu(?:SzPct|SzPts|Font|Char|Clr)\b[^>]*?(?:\/>|>[\s\S]*?<\/a:bu(?:Font|Clr)>)/g, '')}</a:pPr>`;
  });
}

/** Every paragraph says its space before (none, as measured) so the template's body spacing is not added. */
function keepMeasuredSpacing(sp: string): string {
  return sp.replace(/<a:pPr\b([^>]*?)(\/>|>([\s\S]*?)<\/a:pPr>)/g, (whole, attrs: string, _end: string, inner: string | undefined) => {
    if (inner !== undefined && /<a:spcBef>/.test(inner)) return whole;
    const rest = inner ?? '';
    // a:spcBef follows a:lnSpc in the schema's order.
    const at = rest.indexOf('</a:lnSpc>');
    const body = at >= 0 ? `${rest.slice(0, at + 10)}<a:spcBef><a:spcPts val="0"/></a:spcBef>${rest.slice(at + 10)}` : `<a:spcBef><a:spcPts val="0"/></a:spcBef>${rest}`;
    return `<a:pPr${attrs}>${body}</a:pPr>`;
  });
}

const idxOf = (sp: Element | undefined): string | undefined => (sp ? placeholderOf(sp)?.getAttribute('idx') || undefined : undefined);

/** The `idx` of a layout's body placeholder Folio's body text goes into (undefined when it has none). */
export function bodyPlaceholderIdx(layout: Document | undefined): string | undefined {
  return idxOf(bodyPlaceholderOf(layout));
}

/** The `idx` of a layout's subtitle placeholder (see subtitlePlaceholderOf), if it has one. */
export function subtitlePlaceholderIdx(layout: Document | undefined): string | undefined {
  return idxOf(subtitlePlaceholderOf(layout));
}

/** The `idx`es of a two-content layout's body placeholders, left then right, when it has two side by side. */
export function columnPlaceholderIdx(layout: Document | undefined): [string, string] | undefined {
  if (!layout) return undefined;
  const bodies = children(layout, NS.p, 'sp')
    .filter((sp) => ['body', 'obj'].includes(placeholderOf(sp)?.getAttribute('type') || 'obj') && placeholderOf(sp) !== undefined)
    .map((sp) => ({ idx: idxOf(sp), box: shapeBox(sp) }))
    .filter((b): b is { idx: string; box: NonNullable<ReturnType<typeof shapeBox>> } => b.idx !== undefined && b.box !== undefined)
    .sort((a, b) => a.box.x - b.box.x);
  const [left, right] = bodies;
  return bodies.length === 2 && left && right && left.box.x + left.box.w <= right.box.x ? [left.idx, right.idx] : undefined;
}

/** Which title placeholder a layout has: `ctrTitle` on title layouts, else `title`. */
export function titlePlaceholderType(layout: Document | undefined): 'title' | 'ctrTitle' {
  const ph = layout ? children(layout, NS.p, 'sp').map(placeholderOf).find((p) => p?.getAttribute('type') === 'ctrTitle' || p?.getAttribute('type') === 'title') : undefined;
  return ph?.getAttribute('type') === 'ctrTitle' ? 'ctrTitle' : 'title';
}
