// Puts a template's master into a rendered deck: pptxgenjs's slide master and layouts are replaced
// by the template's master, its layouts and its theme (with every picture and other part they
// reference), and each slide is pointed at the template layout its kind maps to. The slides
// themselves are untouched, so what the plan placed stays where it was placed; the master's
// background, logo and decorations appear behind every slide, and the colours and fonts a person
// reads back from the file (or uses for new slides) are the template's.
import type JSZip from 'jszip';
import { loadZip } from '../zip';
import { posix } from 'node:path';
import { type TemplateRecord } from '../../../../shared/specs/templates';
import { type TemplateBullet, type TemplateTextStyle } from '../../../../shared/specs/themes';
import { setThemeEastAsianFonts } from '../cjk-fonts';
import type { Document } from '@xmldom/xmldom';
import { bodyPlaceholderIdx, columnPlaceholderIdx, inheritBodyStyle, inheritTitleStyle, subtitlePlaceholderIdx, titlePlaceholderType } from './inherit';
import { parseXml, readPart, readRels, relativeTarget, relsPartOf, REL_TYPE, type Relationship } from './ooxml';
import { bodyBulletsOf } from './bullets';
import { bodyStyleOf, subtitleStyleOf, titleStyleOf } from './paint';
import { readColourMap } from './read';

const MASTER_OUT = 'ppt/slideMasters/slideMaster1.xml';
const THEME_OUT = 'ppt/theme/theme1.xml';
const layoutOut = (i: number): string => `ppt/slideLayouts/slideLayout${i + 1}.xml`;

const CONTENT_TYPE = {
  master: 'application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml',
  layout: 'application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml',
};

/** Content types for media a template may carry that pptxgenjs declares no default for. */
const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml', emf: 'image/x-emf', wmf: 'image/x-wmf',
  tif: 'image/tiff', tiff: 'image/tiff', bmp: 'image/bmp', wdp: 'image/vnd.ms-photo', xml: 'application/xml', bin: 'application/vnd.openxmlformats-officedocument.oleObject',
};

export interface GraftOptions {
  /** For each output slide in order, the template layout part it is drawn on. */
  slideLayouts: readonly string[];
  /** Filled into the theme's empty east-Asian slots, so text typed later in PowerPoint is CJK too. */
  cjkHeading: string;
  cjkBody: string;
}

const escapeAttr = (v: string): string => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function relsXml(rels: readonly Relationship[], fromPart: string): string {
  const items = rels.map((r) => {
    const target = r.external ? r.target : relativeTarget(fromPart, r.target);
    return `<Relationship Id="${escapeAttr(r.id)}" Type="${escapeAttr(r.type)}" Target="${escapeAttr(target)}"${r.external ? ' TargetMode="External"' : ''}/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join('')}</Relationships>`;
}

/** Positions and sizes of every shape scaled (group child spaces too, so groups stay consistent). */
export function scaleGeometry(xml: string, sx: number, sy: number): string {
  const s = (v: string, f: number): string => String(Math.round(Number(v) * f));
  return xml
    .replace(/<a:(off|chOff) x="(-?\d+)" y="(-?\d+)"/g, (_m, tag: string, x: string, y: string) => `<a:${tag} x="${s(x, sx)}" y="${s(y, sy)}"`)
    .replace(/<a:(ext|chExt) cx="(\d+)" cy="(\d+)"/g, (_m, tag: string, x: string, y: string) => `<a:${tag} cx="${s(x, sx)}" cy="${s(y, sy)}"`);
}

interface ContentTypes {
  defaults: Map<string, string>;
  overrides: Map<string, string>;
}

function readContentTypes(xml: string): ContentTypes {
  const defaults = new Map<string, string>();
  const overrides = new Map<string, string>();
  for (const m of xml.matchAll(/<Default Extension="([^"]+)" ContentType="([^"]+)"\/>/g)) defaults.set((m[1] ?? '').toLowerCase(), m[2] ?? '');
  for (const m of xml.matchAll(/<Override PartName="([^"]+)" ContentType="([^"]+)"\/>/g)) overrides.set((m[1] ?? '').replace(/^\//, ''), m[2] ?? '');
  return { defaults, overrides };
}

function writeContentTypes(types: ContentTypes): string {
  const d = [...types.defaults].map(([ext, type]) => `<Default Extension="${escapeAttr(ext)}" ContentType="${escapeAttr(type)}"/>`);
  const o = [...types.overrides].map(([part, type]) => `<Override PartName="/${escapeAttr(part)}" ContentType="${escapeAttr(type)}"/>`);
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${d.join('')}${o.join('')}</Types>`;
}

export async function graftTemplate(deck: Uint8Array, template: Uint8Array, record: TemplateRecord, o: GraftOptions): Promise<Buffer> {
  const out = await loadZip(deck);
  const tpl = await loadZip(template);
  const outTypes = readContentTypes((await readPart(out, '[Content_Types].xml')) ?? '');
  const tplTypes = readContentTypes((await readPart(tpl, '[Content_Types].xml')) ?? '');

  // pptxgenjs's master and layouts go; nothing else references them but the slides, rewired below.
  for (const name of Object.keys(out.files)) {
    if (/^ppt\/(slideMasters|slideLayouts)\//.test(name)) out.remove(name);
  }
  for (const part of [...outTypes.overrides.keys()]) if (/^ppt\/(slideMasters|slideLayouts)\//.test(part)) outTypes.overrides.delete(part);

  const masterRels = await readRels(tpl, record.master);
  const layoutParts = masterRels.filter((r) => r.type === REL_TYPE.slideLayout && !r.external).map((r) => r.target);
  const themePart = masterRels.find((r) => r.type === REL_TYPE.theme)?.target;
  const names = new Map<string, string>([[record.master, MASTER_OUT]]);
  layoutParts.forEach((part, i) => names.set(part, layoutOut(i)));
  if (themePart) names.set(themePart, THEME_OUT);
  const taken = new Set(Object.keys(out.files));

  /** Where a referenced template part goes in the deck: its own name when free, else a tpl- prefixed one. */
  const place = (part: string): string => {
    const known = names.get(part);
    if (known) return known;
    let name = part;
    for (let n = 1; taken.has(name); n++) name = posix.join(posix.dirname(part), `tpl${n > 1 ? n : ''}-${posix.basename(part)}`);
    taken.add(name);
    names.set(part, name);
    return name;
  };

  // The template's master and layouts are scaled to the deck's slide size when it differs.
  const sldSz = /<p:sldSz cx="(\d+)" cy="(\d+)"/.exec((await readPart(out, 'ppt/presentation.xml')) ?? '');
  const sx = sldSz ? Number(sldSz[1]) / record.slide_size.cx : 1;
  const sy = sldSz ? Number(sldSz[2]) / record.slide_size.cy : 1;
  const scaled = Math.abs(sx - 1) > 1e-6 || Math.abs(sy - 1) > 1e-6;
  const queue = [record.master, ...layoutParts, ...(themePart ? [themePart] : [])];
  const copied = new Set<string>();
  while (queue.length > 0) {
    const part = queue.shift() as string;
    if (copied.has(part)) continue;
    copied.add(part);
    const file = tpl.file(part);
    if (!file) continue;
    const target = place(part);
    if (part === record.master || layoutParts.includes(part)) {
      const xml = await file.async('string');
      out.file(target, scaled ? scaleGeometry(xml, sx, sy) : xml);
    } else if (part === themePart) {
      out.file(target, setThemeEastAsianFonts(await file.async('string'), o.cjkHeading, o.cjkBody));
    } else {
      out.file(target, await file.async('uint8array'));
    }
    const rels = await readRels(tpl, part);
    if (rels.length > 0) {
      const kept = rels.map((r) => {
        if (r.external) return r;
        if (!copied.has(r.target)) queue.push(r.target);
        return { ...r, target: place(r.target) };
      });
      out.file(relsPartOf(target), relsXml(kept, target));
    }
    // Content types: the template's own override for the part, else a default for its extension.
    const own = tplTypes.overrides.get(part);
    if (own) outTypes.overrides.set(target, own);
    else {
      const ext = posix.extname(target).slice(1).toLowerCase();
      const type = tplTypes.defaults.get(ext) ?? MEDIA_TYPES[ext];
      if (ext && type && !outTypes.defaults.has(ext)) outTypes.defaults.set(ext, type);
    }
  }
  outTypes.overrides.set(MASTER_OUT, CONTENT_TYPE.master);
  layoutParts.forEach((_, i) => outTypes.overrides.set(layoutOut(i), CONTENT_TYPE.layout));
  out.file('[Content_Types].xml', writeContentTypes(outTypes));

  // Each slide onto the template layout its kind maps to, its title inheriting that layout's title style.
  const inherit = await titleInheritance(tpl, record);
  for (let i = 0; i < o.slideLayouts.length; i++) {
    const slidePart = `ppt/slides/slide${i + 1}.xml`;
    const rels = await readRels(out, slidePart);
    const wanted = o.slideLayouts[i] ?? record.mapping.content;
    const source = layoutParts.includes(wanted) ? wanted : record.mapping.content;
    const layout = names.get(source) ?? layoutOut(0);
    const rewired = rels.map((r) => (r.type === REL_TYPE.slideLayout ? { ...r, target: layout } : r));
    out.file(relsPartOf(slidePart), relsXml(rewired, slidePart));
    const xml = await readPart(out, slidePart);
    if (xml !== null) {
      const inherited = await inherit(source);
      let styled = inheritTitleStyle(xml, inherited.style, inherited.phType);
      if (inherited.bodyIdx !== undefined) styled = inheritBodyStyle(styled, inherited.body, inherited.bodyIdx, 'body', 'body', inherited.bullets);
      // A subtitle's size and face stay written: LibreOffice sets a subtitle placeholder in its own
      // 32 pt sans, not the master's body size and face (its colour and alignment it does inherit).
      if (inherited.subtitle) styled = inheritBodyStyle(styled, { ...inherited.subtitle.style, sizePt: undefined, face: undefined }, inherited.subtitle.idx, 'subtitle', 'subTitle');
      if (inherited.columnIdx) {
        styled = inheritBodyStyle(styled, inherited.body, inherited.columnIdx[0], 'left', 'body', inherited.bullets);
        styled = inheritBodyStyle(styled, inherited.body, inherited.columnIdx[1], 'right', 'body', inherited.bullets);
      }
      if (styled !== xml) out.file(slidePart, styled);
    }
  }

  await keepMasterIdUnique(out);
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}

interface Inheritance {
  style: TemplateTextStyle;
  phType: 'title' | 'ctrTitle';
  /** The layout's body placeholder (`idx`) and the level-1 style text in it inherits. */
  body: TemplateTextStyle;
  bodyIdx: string | undefined;
  /** Bullets of text in the body placeholder, level 1 first. */
  bullets: TemplateBullet[];
  /** A two-content layout's two body placeholders, left and right. */
  columnIdx: [string, string] | undefined;
  /** A title layout's subtitle placeholder and the style text in it inherits. */
  subtitle: { idx: string; style: TemplateTextStyle } | undefined;
}

/** For a template layout part: the title and body styles its placeholders give, and their kinds (layouts read once). */
async function titleInheritance(tpl: JSZip, record: TemplateRecord): Promise<(layoutPart: string) => Promise<Inheritance>> {
  const masterXml = await readPart(tpl, record.master);
  const master = masterXml === null ? undefined : parseXml(masterXml, record.master);
  const fonts = { major_latin: record.fonts.major_latin, minor_latin: record.fonts.minor_latin };
  const resolve = master ? { scheme: record.colours, map: readColourMap(master), fonts } : undefined;
  const cache = new Map<string, Inheritance>();
  return async (part) => {
    const known = cache.get(part);
    if (known) return known;
    const xml = await readPart(tpl, part);
    const layout: Document | undefined = xml === null ? undefined : parseXml(xml, part);
    const subtitleOf = (doc: Document | undefined): Inheritance['subtitle'] => {
      const idx = subtitlePlaceholderIdx(doc);
      const style = master && resolve ? subtitleStyleOf(master, doc, resolve) : undefined;
      return idx !== undefined && style ? { idx, style } : undefined;
    };
    const found: Inheritance = {
      style: master && resolve ? titleStyleOf(master, layout, resolve) : {},
      phType: titlePlaceholderType(layout),
      body: master && resolve ? bodyStyleOf(master, layout, resolve) : {},
      bodyIdx: bodyPlaceholderIdx(layout),
      bullets: master ? bodyBulletsOf(master, layout) : [],
      columnIdx: columnPlaceholderIdx(layout),
      subtitle: subtitleOf(layout),
    };
    cache.set(part, found);
    return found;
  };
}

/** Master and layout ids share one space: the presentation's master id must not be one of the template's layout ids. */
async function keepMasterIdUnique(out: JSZip): Promise<void> {
  const master = (await readPart(out, MASTER_OUT)) ?? '';
  const layoutIds = [...master.matchAll(/<p:sldLayoutId id="(\d+)"/g)].map((m) => Number(m[1]));
  const presentation = (await readPart(out, 'ppt/presentation.xml')) ?? '';
  const current = Number(/<p:sldMasterId id="(\d+)"/.exec(presentation)?.[1] ?? NaN);
  if (!layoutIds.includes(current)) return;
  const fresh = Math.max(...layoutIds) + 1;
  out.file('ppt/presentation.xml', presentation.replace(/<p:sldMasterId id="\d+"/, `<p:sldMasterId id="${fresh}"`));
}
