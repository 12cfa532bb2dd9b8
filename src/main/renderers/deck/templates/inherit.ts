// Text in a template's placeholders takes the placeholder's style from the template, as a brand team
// expects: a run property the layout (through its master) already gives the same value is left out of
// the slide, so PowerPoint and LibreOffice draw it from the template, and a person who restyles the
// master restyles the deck. Only what Folio chose differently stays on the run: a size shrunk to fit,
// a colour replaced because the template's does not read on what is behind it, a CJK face.
import type { Document } from '@xmldom/xmldom';
import { containsCjk } from '../../../../shared/specs/deck-text';
import { type TemplateTextStyle } from '../../../../shared/specs/themes';
import { placeholderOf } from './paint';
import { children, NS } from './ooxml';

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

/**
 * The title placeholder of a slide on a template layout: run properties (size, colour, face, bold)
 * and paragraph alignment the layout's title style gives alike are left to it, and the placeholder
 * is the layout's kind (a centred title on a title layout), so the slide inherits from the right one.
 */
export function inheritTitleStyle(slideXml: string, style: TemplateTextStyle, phType: 'title' | 'ctrTitle'): string {
  return slideXml.replace(TITLE_SP, (sp) => {
    let out = sp.replace('<p:ph type="title"/>', `<p:ph type="${phType}"/>`);
    out = out.replace(RUN, (_m, props: string, t: string | undefined) => `<a:r>${inheritRunProps(props, style, t ?? '')}${t ?? ''}`);
    out = out.replace(END_PROPS, (props) => inheritRunProps(props, style, ''));
    const algn = style.align ? ALGN[style.align] : undefined;
    if (algn) out = out.replace(new RegExp(`(<a:pPr\\b[^>]*?)\\salgn="${algn}"`, 'g'), '$1');
    return out;
  });
}

/** Which title placeholder a layout has: `ctrTitle` on title layouts, else `title`. */
export function titlePlaceholderType(layout: Document | undefined): 'title' | 'ctrTitle' {
  const ph = layout ? children(layout, NS.p, 'sp').map(placeholderOf).find((p) => p?.getAttribute('type') === 'ctrTitle' || p?.getAttribute('type') === 'title') : undefined;
  return ph?.getAttribute('type') === 'ctrTitle' ? 'ctrTitle' : 'title';
}
