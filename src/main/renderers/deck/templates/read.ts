// Reads a person's .pptx/.potx: its first slide master and that master's layouts, the theme's colour
// and font schemes, the backgrounds, the master's pictures (a logo) and where each layout puts its
// placeholders. Refuses, with a message a person can act on, what is not a PowerPoint file, is
// encrypted or legacy binary, is damaged, or is too large.
import type { Document, Element } from '@xmldom/xmldom';
import type JSZip from 'jszip';
import { loadZip } from '../zip';
import { posix } from 'node:path';
import { FolioError, ValidationError } from '../../../../shared/errors';
import { type PlaceholderInfo, type TemplateLayout, type TemplateLayoutMap, type TemplateRecord } from '../../../../shared/specs/templates';
import { zipSizeRefusal } from '../../../sources/limits';
import { type ColourMap, type ColourScheme, DEFAULT_COLOUR_MAP, resolveColour, SCHEME_SLOTS } from './colours';
import { children, directChildren, EMU_PER_INCH, type EmuBox, first, NS, parseXml, readPart, readRels, readXmlPart, REL_TYPE, shapeBox } from './ooxml';
import { bodyBulletsOf } from './bullets';
import { tableStyleOf, type TemplateTableStyle } from './table-style';
import { bodyStyleOf, hasOwnFooter, paintedShapes, showsMasterShapes, slideNumberBox, subtitleStyleOf, titleStyleOf } from './paint';
import { type Backdrop, type TemplateBullet, type TemplateTextStyle } from '../../../../shared/specs/themes';
import type { TemplateWarning } from '../../../../shared/specs/template-warnings';

/** Larger than any template a person keeps (masters, a few pictures); decks embed it whole. */
export const TEMPLATE_MAX_BYTES = 50 * 1024 * 1024;

/** Main-part content types of presentations, templates and shows (macro-enabled too). */
const PRESENTATION_MAIN = /^application\/vnd\.(?:openxmlformats-officedocument|ms-powerpoint)\.(?:presentationml\.)?(?:presentation|template|slideshow)(?:\.macroEnabled)?\.main\+xml$/i;

export const ASPECTS = { '16:9': 16 / 9, '4:3': 4 / 3 } as const;
export type TemplateAspect = keyof typeof ASPECTS;

/** What the importer read, before the template gets an id and a Folio theme. */
export interface ParsedTemplate extends Omit<TemplateRecord, 'id' | 'created_at' | 'file_name' | 'theme'> {
  scheme: ColourScheme;
  /** Content and title backgrounds resolved to one colour (null when only a picture). */
  contentBackground: string | null;
  titleBackground: string | null;
  /** `tx1` through the master's colour map. */
  textSlot: string;
  /** What the master and layouts paint and how they style titles (paint.ts). */
  paint: TemplatePaint;
}

export interface TemplatePaint {
  title: TemplateTextStyle;
  heroTitle: TemplateTextStyle;
  section: TemplateTextStyle;
  /** Body text in the content layout's body placeholder (level 1). */
  body: TemplateTextStyle;
  /** Subtitles on title and closing slides, when the title layout has a subtitle placeholder. */
  subtitle: TemplateTextStyle | undefined;
  /** Subtitles on section slides, when the section layout has a subtitle (or section text) placeholder. */
  sectionSubtitle: TemplateTextStyle | undefined;
  /** Bullets of body text per level (level 1 first), as the content layout's body placeholder sets them. */
  bullets: TemplateBullet[];
  /** Per kind of slide, back to front; the first is the slide background. */
  backdrops: { content: Backdrop[]; title: Backdrop[]; section: Backdrop[] };
  ownFooter: boolean;
  number: { x: number; y: number; w: number; h: number } | undefined;
  /** The table style the template defines for its tables (none: Folio derives one from the title). */
  table: TemplateTableStyle | undefined;
}

function refuseBytes(bytes: Uint8Array, fileName: string): void {
  if (bytes.byteLength > TEMPLATE_MAX_BYTES) {
    throw new FolioError('payload_too_large', `${fileName} is ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB; a template may be at most ${TEMPLATE_MAX_BYTES / 1024 / 1024} MB.`);
  }
  const head = Buffer.from(bytes.subarray(0, 8)).toString('hex');
  if (head === 'd0cf11e0a1b11ae1') {
    throw new ValidationError(`${fileName} is password-protected (encrypted) or an old PowerPoint 97-2003 file (.ppt/.pot): remove the password, or save it as .pptx or .potx, and import it again.`);
  }
  if (!head.startsWith('504b0304')) throw new ValidationError(`${fileName} is not a PowerPoint file: import a .pptx or .potx.`);
}

async function openZip(bytes: Uint8Array, fileName: string): Promise<JSZip> {
  let zip: JSZip;
  try {
    zip = await loadZip(bytes);
  } catch {
    throw new ValidationError(`${fileName} is damaged: it is not a readable .pptx/.potx archive.`);
  }
  const refusal = await zipSizeRefusal(zip, bytes.byteLength);
  if (refusal) throw new FolioError('payload_too_large', `${fileName} is ${refusal}.`);
  return zip;
}

async function mainPart(zip: JSZip, fileName: string): Promise<string> {
  const rels = await readRels(zip, '');
  const main = rels.find((r) => r.type === REL_TYPE.officeDocument)?.target;
  if (!main) throw new ValidationError(`${fileName} is not an Office file (no main part): import a .pptx or .potx.`);
  const types = await readXmlPart(zip, '[Content_Types].xml');
  const override = children(types, NS.ct, 'Override').find((o) => (o.getAttribute('PartName') ?? '').replace(/^\//, '') === main);
  const type = override?.getAttribute('ContentType') ?? '';
  if (!PRESENTATION_MAIN.test(type)) {
    const what = /wordprocessingml/.test(type) ? 'a Word document' : /spreadsheetml/.test(type) ? 'an Excel workbook' : 'not a presentation';
    throw new ValidationError(`${fileName} is ${what}: import a PowerPoint .pptx or .potx.`);
  }
  return main;
}

function nearestAspect(cx: number, cy: number): { aspect: TemplateAspect; exact: boolean } {
  const ratio = cx / cy;
  const [aspect, target] = (Object.entries(ASPECTS) as [TemplateAspect, number][]).reduce((best, entry) =>
    Math.abs(Math.log(ratio / entry[1])) < Math.abs(Math.log(ratio / best[1])) ? entry : best,
  );
  return { aspect, exact: Math.abs(ratio / target - 1) < 0.02 };
}

interface Placeholder {
  type: string;
  idx: string | null;
  box: EmuBox | undefined;
}

/** Placeholders of a master or layout (`p:sp` with `p:nvPr/p:ph`); a `ph` without type is an object placeholder. */
function placeholdersOf(doc: Document): Placeholder[] {
  const out: Placeholder[] = [];
  for (const sp of children(doc, NS.p, 'sp')) {
    const nv = directChildren(sp, NS.p, 'nvSpPr')[0];
    const nvPr = nv ? directChildren(nv, NS.p, 'nvPr')[0] : undefined;
    const ph = nvPr ? directChildren(nvPr, NS.p, 'ph')[0] : undefined;
    if (!ph) continue;
    out.push({ type: ph.getAttribute('type') || 'obj', idx: ph.getAttribute('idx') || null, box: shapeBox(sp) });
  }
  return out;
}

const TITLE_TYPES = new Set(['title', 'ctrTitle']);
const BODY_TYPES = new Set(['body', 'obj']);

/** The master placeholder a layout placeholder inherits its position from. */
function inheritedBox(ph: Placeholder, master: Placeholder[]): EmuBox | undefined {
  const kind = TITLE_TYPES.has(ph.type) ? 'title' : BODY_TYPES.has(ph.type) || ph.type === 'subTitle' ? 'body' : ph.type;
  return master.find((m) => m.type === kind || (kind === 'body' && BODY_TYPES.has(m.type)))?.box;
}

function pictures(doc: Document): Element[] {
  return children(doc, NS.p, 'pic');
}

/** Text of the shapes a master or layout draws itself (every `p:sp` that is not a placeholder), with their boxes. */
function fixedTexts(doc: Document): { text: string; box: EmuBox }[] {
  return children(doc, NS.p, 'sp').flatMap((sp) => {
    if (first(sp, NS.p, 'ph')) return [];
    const text = children(sp, NS.a, 't').map((t) => t.textContent ?? '').join(' ').trim();
    const box = shapeBox(sp);
    return text && box ? [{ text: text.slice(0, 500), box }] : [];
  });
}

interface Background {
  kind: TemplateRecord['background']['kind'];
  colour: string | null;
}

/** A master's or layout's `<p:bg>`; undefined when it has none (it inherits). */
function backgroundOf(doc: Document, scheme: ColourScheme, map: ColourMap): Background | undefined {
  const cSld = first(doc, NS.p, 'cSld');
  const bg = cSld ? directChildren(cSld, NS.p, 'bg')[0] : undefined;
  if (!bg) return undefined;
  const bgRef = directChildren(bg, NS.p, 'bgRef')[0];
  if (bgRef) return { kind: 'solid', colour: resolveColour(bgRef, scheme, map) };
  const bgPr = directChildren(bg, NS.p, 'bgPr')[0];
  if (!bgPr) return { kind: 'none', colour: null };
  const fill = [...(bgPr.childNodes as unknown as Iterable<Element>)].find((n) => n.nodeType === 1);
  switch (fill?.localName) {
    case 'solidFill':
      return { kind: 'solid', colour: resolveColour(fill, scheme, map) };
    case 'gradFill':
      return { kind: 'gradient', colour: resolveColour(fill, scheme, map) };
    case 'blipFill':
      return { kind: 'picture', colour: null };
    case 'pattFill':
      return { kind: 'pattern', colour: resolveColour(fill, scheme, map) };
    default:
      return { kind: 'none', colour: null };
  }
}

function readScheme(theme: Document): ColourScheme {
  const scheme: ColourScheme = {};
  const clr = first(theme, NS.a, 'clrScheme');
  if (!clr) return scheme;
  for (const slot of SCHEME_SLOTS) {
    const el = directChildren(clr, NS.a, slot)[0];
    const hex = resolveColour(el, {}, {});
    if (hex) scheme[slot] = hex;
  }
  return scheme;
}

function readFonts(theme: Document): TemplateRecord['fonts'] {
  const face = (group: string, slot: 'latin' | 'ea'): string => {
    const el = first(theme, NS.a, group);
    if (!el) return '';
    const own = directChildren(el, NS.a, slot)[0]?.getAttribute('typeface') ?? '';
    if (own || slot === 'latin') return own;
    // No east-Asian face: PowerPoint uses the script font for Simplified Chinese.
    return directChildren(el, NS.a, 'font').find((f) => f.getAttribute('script') === 'Hans')?.getAttribute('typeface') ?? '';
  };
  return { major_latin: face('majorFont', 'latin'), minor_latin: face('minorFont', 'latin'), major_ea: face('majorFont', 'ea'), minor_ea: face('minorFont', 'ea') };
}

export function readColourMap(master: Document): ColourMap {
  const el = first(master, NS.p, 'clrMap');
  const map: ColourMap = { ...DEFAULT_COLOUR_MAP };
  if (!el) return map;
  for (let i = 0; i < el.attributes.length; i++) {
    const attr = el.attributes.item(i);
    if (attr) map[attr.name] = attr.value;
  }
  return map;
}

async function docTitle(zip: JSZip): Promise<string> {
  const xml = await readPart(zip, 'docProps/core.xml');
  if (!xml) return '';
  const doc = parseXml(xml, 'docProps/core.xml');
  return (first(doc, 'http://purl.org/dc/elements/1.1/', 'title')?.textContent ?? '').trim();
}

function layoutOf(part: string, doc: Document, master: Placeholder[], frac: (b: EmuBox) => Omit<PlaceholderInfo, 'type'>): TemplateLayout {
  const root = doc.documentElement;
  const name = first(doc, NS.p, 'cSld')?.getAttribute('name') ?? posix.basename(part, '.xml');
  const placeholders: PlaceholderInfo[] = [];
  for (const ph of placeholdersOf(doc)) {
    const box = ph.box ?? inheritedBox(ph, master);
    if (box) placeholders.push({ type: ph.type, ...frac(box) });
  }
  return { name, type: root?.getAttribute('type') || 'cust', part, placeholders, pictures: pictures(doc).length };
}

const hasTitle = (l: TemplateLayout): boolean => l.placeholders.some((p) => TITLE_TYPES.has(p.type));
const bodies = (l: TemplateLayout): PlaceholderInfo[] => l.placeholders.filter((p) => BODY_TYPES.has(p.type));

/** Which layout each kind of Folio slide goes on: by PowerPoint's layout type, else by its placeholders. */
export function mapLayouts(layouts: readonly TemplateLayout[], warnings: TemplateWarning[]): TemplateLayoutMap {
  const byType = (...types: string[]): TemplateLayout | undefined => types.map((t) => layouts.find((l) => l.type === t)).find(Boolean);
  const first0 = layouts[0];
  if (!first0) throw new ValidationError('The template has no slide layouts.');
  const content = byType('obj', 'tx') ?? layouts.find((l) => hasTitle(l) && bodies(l).length === 1) ?? byType('titleOnly') ?? layouts.find(hasTitle) ?? first0;
  const title = byType('title') ?? layouts.find((l) => l.placeholders.some((p) => p.type === 'ctrTitle')) ?? content;
  const section = byType('secHead') ?? title;
  const two = byType('twoObj', 'twoColTx') ?? layouts.find((l) => hasTitle(l) && bodies(l).length === 2) ?? content;
  const blank = byType('blank') ?? content;
  if (title === content && layouts.length > 1) warnings.push({ kind: 'no_title_layout' });
  if (section === title && !byType('secHead')) warnings.push({ kind: 'no_section_layout', layout: title.name });
  if (two === content) warnings.push({ kind: 'no_two_content_layout', layout: content.name });
  if (!hasTitle(content)) warnings.push({ kind: 'content_layout_no_title', layout: content.name });
  return { title: title.part, section: section.part, content: content.part, two_content: two.part, blank: blank.part };
}

export async function readTemplate(bytes: Uint8Array, fileName: string): Promise<ParsedTemplate> {
  refuseBytes(bytes, fileName);
  const zip = await openZip(bytes, fileName);
  const main = await mainPart(zip, fileName);
  const warnings: TemplateWarning[] = [];
  const presentation = await readXmlPart(zip, main);
  const mainRels = await readRels(zip, main);

  const sldSz = first(presentation, NS.p, 'sldSz');
  const cx = Number(sldSz?.getAttribute('cx') ?? 12192000);
  const cy = Number(sldSz?.getAttribute('cy') ?? 6858000);
  if (!(cx > 0 && cy > 0)) throw new ValidationError(`${fileName} has no valid slide size.`);
  const { aspect, exact } = nearestAspect(cx, cy);
  if (!exact) warnings.push({ kind: 'odd_slide_size', width: (cx / EMU_PER_INCH).toFixed(2), height: (cy / EMU_PER_INCH).toFixed(2), aspect });

  const masterIds = children(presentation, NS.p, 'sldMasterId').map((m) => m.getAttributeNS(NS.r, 'id') ?? '');
  const masterParts = masterIds.map((id) => mainRels.find((r) => r.id === id && r.type === REL_TYPE.slideMaster)?.target).filter((t): t is string => Boolean(t));
  const masterPart = masterParts[0];
  if (!masterPart) throw new ValidationError(`${fileName} has no slide master.`);
  const masterDoc = await readXmlPart(zip, masterPart);
  const masterRels = await readRels(zip, masterPart);
  if (masterParts.length > 1) warnings.push({ kind: 'several_masters', count: masterParts.length, master: first(masterDoc, NS.p, 'cSld')?.getAttribute('name') || 'Master 1' });

  const themePart = masterRels.find((r) => r.type === REL_TYPE.theme)?.target;
  if (!themePart) throw new ValidationError(`${fileName}: its slide master has no theme.`);
  const themeDoc = await readXmlPart(zip, themePart);
  const scheme = readScheme(themeDoc);
  const missing = SCHEME_SLOTS.slice(0, 10).filter((s) => !scheme[s]);
  if (missing.length > 0) warnings.push({ kind: 'theme_colours_missing', slots: missing });
  const map = readColourMap(masterDoc);
  const fonts = readFonts(themeDoc);

  const frac = (b: EmuBox): Omit<PlaceholderInfo, 'type'> => ({ x: b.x / cx, y: b.y / cy, w: b.w / cx, h: b.h / cy });
  const masterPlaceholders = placeholdersOf(masterDoc);
  const layoutIds = children(masterDoc, NS.p, 'sldLayoutId').map((l) => l.getAttributeNS(NS.r, 'id') ?? '');
  const layouts: TemplateLayout[] = [];
  const layoutDocs = new Map<string, Document>();
  for (const id of layoutIds) {
    const part = masterRels.find((r) => r.id === id && r.type === REL_TYPE.slideLayout)?.target;
    if (!part || layoutDocs.has(part)) continue;
    const doc = await readXmlPart(zip, part);
    layoutDocs.set(part, doc);
    layouts.push(layoutOf(part, doc, masterPlaceholders, frac));
  }
  const mapping = mapLayouts(layouts, warnings);
  const unfilled = [...new Set(layouts.flatMap((l) => l.placeholders.map((p) => p.type)).filter((t) => ['pic', 'chart', 'tbl', 'media', 'clipArt', 'dgm'].includes(t)))];
  if (unfilled.length > 0) warnings.push({ kind: 'unfilled_placeholders', types: unfilled });

  const masterBg = backgroundOf(masterDoc, scheme, map);
  const bgOf = (part: string): Background | undefined => {
    const doc = layoutDocs.get(part);
    return (doc ? backgroundOf(doc, scheme, map) : undefined) ?? masterBg;
  };
  const contentBg = bgOf(mapping.content) ?? { kind: 'none', colour: null };
  const titleBg = bgOf(mapping.title) ?? contentBg;
  if (contentBg.kind === 'picture') warnings.push({ kind: 'picture_background' });
  if (contentBg.kind === 'gradient') warnings.push({ kind: 'gradient_background' });

  // The logo: the master's first picture, else the content layout's (templates made by tools that
  // draw everything on a layout).
  const contentDoc = layoutDocs.get(mapping.content);
  const logoFrom = pictures(masterDoc).length > 0 ? { doc: masterDoc, rels: masterRels } : contentDoc ? { doc: contentDoc, rels: await readRels(zip, mapping.content) } : undefined;
  let logo: TemplateRecord['logo'] = null;
  const pic = logoFrom ? pictures(logoFrom.doc)[0] : undefined;
  if (pic && logoFrom) {
    const embed = first(pic, NS.a, 'blip')?.getAttributeNS(NS.r, 'embed') ?? '';
    const target = logoFrom.rels.find((r) => r.id === embed && !r.external)?.target;
    const box = shapeBox(pic);
    if (target && box) logo = { part: target, ...frac(box) };
  }
  if (!fonts.major_ea && !fonts.minor_ea) warnings.push({ kind: 'no_east_asian_font' });

  const resolve = { scheme, map, fonts };
  const backdropsOf = (part: string): Backdrop[] => {
    const doc = layoutDocs.get(part);
    const bg = bgOf(part);
    const base: Backdrop = { x: 0, y: 0, w: 1, h: 1, color: bg?.kind === 'picture' ? null : (bg?.colour ?? scheme.lt1 ?? 'FFFFFF') };
    const master = showsMasterShapes(doc) ? paintedShapes(masterDoc, resolve, frac) : [];
    return [base, ...master, ...(doc ? paintedShapes(doc, resolve, frac) : [])].slice(0, 60);
  };
  const numberEmu = slideNumberBox([contentDoc, masterDoc].filter((d): d is Document => d !== undefined));
  const paint: TemplatePaint = {
    title: titleStyleOf(masterDoc, contentDoc, resolve),
    heroTitle: titleStyleOf(masterDoc, layoutDocs.get(mapping.title), resolve),
    section: titleStyleOf(masterDoc, layoutDocs.get(mapping.section), resolve),
    body: bodyStyleOf(masterDoc, contentDoc, resolve),
    subtitle: subtitleStyleOf(masterDoc, layoutDocs.get(mapping.title), resolve),
    sectionSubtitle: subtitleStyleOf(masterDoc, layoutDocs.get(mapping.section), resolve),
    bullets: bodyBulletsOf(masterDoc, contentDoc),
    backdrops: { content: backdropsOf(mapping.content), title: backdropsOf(mapping.title), section: backdropsOf(mapping.section) },
    ownFooter: hasOwnFooter([masterDoc, ...(contentDoc ? [contentDoc] : [])], frac),
    number: numberEmu ? frac(numberEmu) : undefined,
    table: await tableStyleOf(zip, mainRels, [...layoutDocs.values()], scheme, map),
  };

  const title = (await docTitle(zip)) || fileName.replace(/\.(pptx|potx|pptm|potm)$/i, '');
  return {
    name: title.slice(0, 200),
    aspect,
    slide_size: { cx, cy },
    colours: scheme,
    scheme,
    fonts,
    background: { kind: contentBg.kind, colour: contentBg.colour },
    contentBackground: contentBg.colour,
    titleBackground: titleBg.colour,
    textSlot: map.tx1 ?? 'dk1',
    paint,
    logo,
    master: masterPart,
    layouts,
    mapping,
    warnings,
    fixed_text: [masterDoc, ...[...new Set(Object.values(mapping))].map((part) => layoutDocs.get(part))]
      .flatMap((doc) => (doc ? fixedTexts(doc) : []))
      .map(({ text, box }) => ({ text, ...frac(box) }))
      .slice(0, 100),
  };
}
