// What a template's master and layouts paint and how they style titles, read so Folio's text can
// follow them: the title placeholder's style through the inheritance chain (master text styles →
// master placeholder → layout placeholder), the filled shapes and pictures behind the text (a title
// bar, a band, a full-bleed photo) back to front, the footer the master draws itself, and where its
// slide number goes.
import type { Document, Element } from '@xmldom/xmldom';
import { type Backdrop, type TemplateTextStyle } from '../../../../shared/specs/themes';
import { type ColourMap, type ColourScheme, resolveColour } from './colours';
import { children, directChildren, type EmuBox, first, NS, shapeBox } from './ooxml';

export interface ThemeFonts {
  major_latin: string;
  minor_latin: string;
}

interface Resolve {
  scheme: ColourScheme;
  map: ColourMap;
  fonts: ThemeFonts;
}

const ALIGN: Record<string, TemplateTextStyle['align']> = { l: 'left', ctr: 'center', r: 'right', just: 'left', dist: 'left' };
const ANCHOR: Record<string, TemplateTextStyle['valign']> = { t: 'top', ctr: 'middle', b: 'bottom' };

/** The `<p:ph>` of a shape, if it is a placeholder. */
export function placeholderOf(sp: Element): Element | undefined {
  const nv = directChildren(sp, NS.p, 'nvSpPr')[0];
  const nvPr = nv ? directChildren(nv, NS.p, 'nvPr')[0] : undefined;
  return nvPr ? directChildren(nvPr, NS.p, 'ph')[0] : undefined;
}

function placeholdersOfType(doc: Document, types: readonly string[]): Element[] {
  return children(doc, NS.p, 'sp').filter((sp) => {
    const ph = placeholderOf(sp);
    return ph !== undefined && types.includes(ph.getAttribute('type') || 'obj');
  });
}

/** `+mj-lt` and `+mn-lt` are the theme's major and minor Latin faces. */
function faceName(typeface: string, fonts: ThemeFonts): string | undefined {
  if (typeface === '+mj-lt') return fonts.major_latin || undefined;
  if (typeface === '+mn-lt') return fonts.minor_latin || undefined;
  if (!typeface || typeface.startsWith('+')) return undefined;
  return typeface;
}

/** What a level-1 paragraph style (`a:lvl1pPr` with its `a:defRPr`) says, over `base`. */
function applyLevel(base: TemplateTextStyle, lvl: Element | undefined, r: Resolve): TemplateTextStyle {
  if (!lvl) return base;
  const out = { ...base };
  const algn = ALIGN[lvl.getAttribute('algn') ?? ''];
  if (algn) out.align = algn;
  const def = directChildren(lvl, NS.a, 'defRPr')[0];
  if (def) {
    const sz = Number(def.getAttribute('sz') ?? NaN);
    if (Number.isFinite(sz) && sz >= 800 && sz <= 9600) out.sizePt = sz / 100;
    const b = def.getAttribute('b');
    if (b === '1' || b === 'true') out.bold = true;
    if (b === '0' || b === 'false') out.bold = false;
    const fill = directChildren(def, NS.a, 'solidFill')[0];
    const colour = fill ? resolveColour(fill, r.scheme, r.map) : null;
    if (colour) out.color = colour;
    const latin = directChildren(def, NS.a, 'latin')[0];
    const face = latin ? faceName(latin.getAttribute('typeface') ?? '', r.fonts) : undefined;
    if (face && /^[^<>"&]{1,64}$/.test(face)) out.face = face;
  }
  return out;
}

function applyPlaceholder(base: TemplateTextStyle, sp: Element | undefined, r: Resolve): TemplateTextStyle {
  if (!sp) return base;
  const txBody = directChildren(sp, NS.p, 'txBody')[0];
  if (!txBody) return base;
  const anchor = ANCHOR[directChildren(txBody, NS.a, 'bodyPr')[0]?.getAttribute('anchor') ?? ''];
  const lst = directChildren(txBody, NS.a, 'lstStyle')[0];
  const styled = applyLevel(base, lst ? directChildren(lst, NS.a, 'lvl1pPr')[0] : undefined, r);
  return anchor ? { ...styled, valign: anchor } : styled;
}

/**
 * The title style a slide on `layout` inherits: the master's title text style, then the master's
 * title placeholder, then the layout's own title (or centred title) placeholder.
 */
export function titleStyleOf(master: Document, layout: Document | undefined, r: Resolve): TemplateTextStyle {
  const txStyles = first(master, NS.p, 'txStyles');
  const titleStyle = txStyles ? directChildren(txStyles, NS.p, 'titleStyle')[0] : undefined;
  let style: TemplateTextStyle = { face: r.fonts.major_latin || undefined };
  style = applyLevel(style, titleStyle ? directChildren(titleStyle, NS.a, 'lvl1pPr')[0] : undefined, r);
  style = applyPlaceholder(style, placeholdersOfType(master, ['title'])[0], r);
  if (layout) style = applyPlaceholder(style, placeholdersOfType(layout, ['title', 'ctrTitle'])[0], r);
  return Object.fromEntries(Object.entries(style).filter(([, v]) => v !== undefined));
}

/** A layout's body placeholder Folio writes body text into: the largest `body` or object placeholder. */
export function bodyPlaceholderOf(layout: Document | undefined): Element | undefined {
  if (!layout) return undefined;
  const area = (sp: Element): number => {
    const b = shapeBox(sp);
    return b ? b.w * b.h : 0;
  };
  return placeholdersOfType(layout, ['body', 'obj']).sort((a, b) => area(b) - area(a))[0];
}

/** The master's placeholder a layout placeholder inherits from: same type (an object placeholder inherits the body's). */
export function masterPlaceholder(master: Document, ph: Element | undefined): Element | undefined {
  const type = ph?.getAttribute('type') || 'obj';
  return placeholdersOfType(master, [type === 'obj' ? 'body' : type])[0] ?? placeholdersOfType(master, ['body'])[0];
}

/**
 * The level-1 body style a slide's text in `layout`'s body placeholder inherits: the master's body
 * text style, then the master's body placeholder, then the layout's own body placeholder.
 */
export function bodyStyleOf(master: Document, layout: Document | undefined, r: Resolve): TemplateTextStyle {
  return placeholderTextStyle(master, bodyPlaceholderOf(layout), r);
}

/** A layout's subtitle placeholder, if it has one: a title layout's `subTitle`, a section header's text (body) placeholder. */
export function subtitlePlaceholderOf(layout: Document | undefined): Element | undefined {
  if (!layout) return undefined;
  const own = placeholdersOfType(layout, ['subTitle'])[0];
  if (own || layout.documentElement?.getAttribute('type') !== 'secHead') return own;
  return placeholdersOfType(layout, ['body'])[0];
}

/** The style a title layout's subtitle placeholder gives its text (the master's body style under it); undefined without one. */
export function subtitleStyleOf(master: Document, layout: Document | undefined, r: Resolve): TemplateTextStyle | undefined {
  const sp = subtitlePlaceholderOf(layout);
  return sp ? placeholderTextStyle(master, sp, r) : undefined;
}

/** What text in placeholder `sp` inherits at level 1: the master's body text style, the master's placeholder of its kind, then `sp`. */
function placeholderTextStyle(master: Document, sp: Element | undefined, r: Resolve): TemplateTextStyle {
  const txStyles = first(master, NS.p, 'txStyles');
  const bodyStyle = txStyles ? directChildren(txStyles, NS.p, 'bodyStyle')[0] : undefined;
  let style: TemplateTextStyle = { face: r.fonts.minor_latin || undefined };
  style = applyLevel(style, bodyStyle ? directChildren(bodyStyle, NS.a, 'lvl1pPr')[0] : undefined, r);
  style = applyPlaceholder(style, masterPlaceholder(master, sp?.getElementsByTagNameNS(NS.p, 'ph')[0]), r);
  style = applyPlaceholder(style, sp, r);
  return Object.fromEntries(Object.entries(style).filter(([, v]) => v !== undefined));
}

/** Shapes in the order they are drawn (groups flattened; their children are read in slide space, near enough for a band). */
export function drawnShapes(doc: Document): Element[] {
  const tree = first(doc, NS.p, 'spTree');
  const out: Element[] = [];
  const walk = (el: Element): void => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1 || (n as Element).namespaceURI !== NS.p) continue;
      const child = n as Element;
      if (child.localName === 'grpSp') walk(child);
      else if (child.localName === 'sp' || child.localName === 'pic') out.push(child);
    }
  };
  if (tree) walk(tree);
  return out;
}

/** Pictures smaller than this share of the slide are marks (a logo), not something text sits on. */
const MARK_AREA = 0.06;

/** Filled shapes and large pictures of one master or layout, back to front. */
export function paintedShapes(doc: Document, r: Resolve, frac: (b: EmuBox) => Omit<Backdrop, 'color'>): Backdrop[] {
  const out: Backdrop[] = [];
  for (const shape of drawnShapes(doc)) {
    const emu = shapeBox(shape);
    if (!emu) continue;
    const box = frac(emu);
    if (shape.localName === 'pic') {
      if (box.w * box.h >= MARK_AREA) out.push({ ...box, color: null });
      continue;
    }
    const spPr = directChildren(shape, NS.p, 'spPr')[0];
    const fill = spPr ? directChildren(spPr, NS.a, 'solidFill')[0] ?? directChildren(spPr, NS.a, 'gradFill')[0] : undefined;
    const blip = spPr ? directChildren(spPr, NS.a, 'blipFill')[0] : undefined;
    if (blip && box.w * box.h >= MARK_AREA) out.push({ ...box, color: null });
    const colour = fill ? resolveColour(fill, r.scheme, r.map) : null;
    if (colour) out.push({ ...box, color: colour });
  }
  return out;
}

/** Whether a layout shows its master's shapes (`showMasterSp="0"` hides them). */
export function showsMasterShapes(layout: Document | undefined): boolean {
  return layout?.documentElement?.getAttribute('showMasterSp') !== '0';
}

/** The bottom of the slide where footers live, as a fraction of its height. */
const FOOTER_TOP = 0.85;

/**
 * Whether the master (or the content layout) prints a footer itself: text it draws in the bottom
 * band, or a footer placeholder that carries text.
 */
export function hasOwnFooter(docs: readonly Document[], frac: (b: EmuBox) => Omit<Backdrop, 'color'>): boolean {
  return docs.some((doc) =>
    children(doc, NS.p, 'sp').some((sp) => {
      const ph = placeholderOf(sp);
      const text = children(sp, NS.a, 't').map((t) => t.textContent ?? '').join('').trim();
      if (!text) return false;
      if (ph) return ph.getAttribute('type') === 'ftr';
      const emu = shapeBox(sp);
      return emu !== undefined && frac(emu).y >= FOOTER_TOP;
    }),
  );
}

/** The slide-number placeholder's box: the layout's, else the master's. */
export function slideNumberBox(docs: readonly Document[]): EmuBox | undefined {
  for (const doc of docs) {
    const box = placeholdersOfType(doc, ['sldNum']).map(shapeBox).find((b) => b !== undefined);
    if (box) return box;
  }
  return undefined;
}
