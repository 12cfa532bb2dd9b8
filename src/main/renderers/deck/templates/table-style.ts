// The table style a template gives its tables (ppt/tableStyles.xml): the one a table in its layouts
// or slides uses, else the list's default, when the file defines it. PowerPoint's built-in styles are
// named by id only (nothing to read), so a template that defines none gets Folio's derived colours.
import type { Document, Element } from '@xmldom/xmldom';
import type JSZip from 'jszip';
import { type ColourMap, type ColourScheme, resolveColour } from './colours';
import { children, directChildren, first, NS, parseXml, readPart, type Relationship } from './ooxml';

const TABLE_STYLES_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/tableStyles';
const SLIDE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide';
/** Sample slides read for the style their tables use: a template's first few show its table. */
const MAX_SLIDES_READ = 40;

/** Colours of a defined table style; any may be missing (a style that leaves it to the whole table or to PowerPoint). */
export interface TemplateTableStyle {
  name: string;
  headerFill?: string;
  headerText?: string;
  bodyFill?: string;
  bodyText?: string;
  /** Every other body row (band1H). */
  bandFill?: string;
}

/** A part (`a:wholeTbl`, `a:firstRow`, …) of a table style: its cell fill and its text colour. */
function partColours(style: Element, part: string, scheme: ColourScheme, map: ColourMap): { fill?: string; text?: string } {
  const el = directChildren(style, NS.a, part)[0];
  if (!el) return {};
  const tcStyle = directChildren(el, NS.a, 'tcStyle')[0];
  const fillEl = tcStyle ? directChildren(tcStyle, NS.a, 'fill')[0] : undefined;
  const solid = fillEl ? directChildren(fillEl, NS.a, 'solidFill')[0] : undefined;
  const fill = solid ? resolveColour(solid, scheme, map) : null;
  // The text style's own colour element wins over its font reference's colour.
  const txStyle = directChildren(el, NS.a, 'tcTxStyle')[0];
  const own = txStyle ? Array.from(txStyle.childNodes).find((n): n is Element => n.nodeType === 1 && (n as Element).localName !== 'fontRef' && (n as Element).localName !== 'font') : undefined;
  const text = own ? resolveColour(own, scheme, map) : txStyle ? resolveColour(first(txStyle, NS.a, 'fontRef'), scheme, map) : null;
  return { ...(fill ? { fill } : {}), ...(text ? { text } : {}) };
}

/** The style ids tables in the layouts, then in the template's sample slides, ask for, in order. */
async function usedStyleIds(zip: JSZip, mainRels: readonly Relationship[], layouts: readonly Document[]): Promise<string[]> {
  const inLayouts = layouts.flatMap((doc) => children(doc, NS.a, 'tableStyleId').map((el) => (el.textContent ?? '').trim()));
  const slides = mainRels.filter((r) => r.type === SLIDE_REL && !r.external).slice(0, MAX_SLIDES_READ);
  const inSlides: string[] = [];
  for (const slide of slides) {
    const xml = (await readPart(zip, slide.target)) ?? '';
    // Only slides with a table are parsed.
    if (xml.includes('tableStyleId')) inSlides.push(...children(parseXml(xml, slide.target), NS.a, 'tableStyleId').map((el) => (el.textContent ?? '').trim()));
  }
  return [...inLayouts, ...inSlides].filter(Boolean);
}

/** The template's table style, when its tableStyles part defines the one its tables use (else its default). */
export async function tableStyleOf(zip: JSZip, mainRels: readonly Relationship[], layouts: readonly Document[], scheme: ColourScheme, map: ColourMap): Promise<TemplateTableStyle | undefined> {
  const part = mainRels.find((r) => r.type === TABLE_STYLES_REL && !r.external)?.target;
  const xml = part ? await readPart(zip, part) : null;
  if (!part || !xml) return undefined;
  const list = parseXml(xml, part).documentElement;
  if (!list) return undefined;
  const styles = directChildren(list, NS.a, 'tblStyle');
  const byId = (id: string): Element | undefined => styles.find((s) => s.getAttribute('styleId') === id);
  const style = [...(await usedStyleIds(zip, mainRels, layouts)), list.getAttribute('def') ?? ''].map(byId).find((s) => s !== undefined);
  if (!style) return undefined;
  const whole = partColours(style, 'wholeTbl', scheme, map);
  const header = partColours(style, 'firstRow', scheme, map);
  const band = partColours(style, 'band1H', scheme, map);
  const found: TemplateTableStyle = {
    name: style.getAttribute('styleName') || style.getAttribute('styleId') || 'table style',
    ...(header.fill ? { headerFill: header.fill } : {}),
    ...((header.text ?? whole.text) ? { headerText: header.text ?? whole.text } : {}),
    ...(whole.fill ? { bodyFill: whole.fill } : {}),
    ...(whole.text ? { bodyText: whole.text } : {}),
    ...(band.fill ? { bandFill: band.fill } : {}),
  };
  return found.headerFill || found.bodyText || found.bodyFill ? found : undefined;
}
