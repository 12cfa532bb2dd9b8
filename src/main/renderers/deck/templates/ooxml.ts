// Reading the parts of an Office Open XML package: XML parsed with xmldom (namespace-aware, so a
// file that spells its prefixes differently still reads), relationships resolved to part names.
import { createRequire } from 'node:module';
import type { DOMParser as XmlParser, Document, Element } from '@xmldom/xmldom';
import type JSZip from 'jszip';
import { posix } from 'node:path';
import { ValidationError } from '../../../../shared/errors';

export const NS = {
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  rel: 'http://schemas.openxmlformats.org/package/2006/relationships',
  ct: 'http://schemas.openxmlformats.org/package/2006/content-types',
} as const;

export const REL_TYPE = {
  officeDocument: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument',
  slideMaster: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster',
  slideLayout: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout',
  theme: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme',
  image: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image',
} as const;

let domParser: typeof XmlParser | undefined;

export function parseXml(xml: string, part: string): Document {
  // xmldom (CommonJS) is required at the first template read, not at start-up.
  domParser ??= (createRequire(import.meta.url)('@xmldom/xmldom') as { DOMParser: typeof XmlParser }).DOMParser;
  try {
    return new domParser({ onError: () => undefined }).parseFromString(xml, 'text/xml');
  } catch (err) {
    throw new ValidationError(`The template's ${part} is not well-formed XML (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); open and save it again in PowerPoint.`);
  }
}

export async function readPart(zip: JSZip, part: string): Promise<string | null> {
  const file = zip.file(part);
  return file ? file.async('string') : null;
}

export async function readXmlPart(zip: JSZip, part: string): Promise<Document> {
  const xml = await readPart(zip, part);
  if (xml === null) throw new ValidationError(`The template is missing ${part}; it is not a complete PowerPoint file.`);
  return parseXml(xml, part);
}

export function children(el: Element | Document, ns: string, local: string): Element[] {
  return Array.from(el.getElementsByTagNameNS(ns, local));
}

export function first(el: Element | Document, ns: string, local: string): Element | undefined {
  return el.getElementsByTagNameNS(ns, local)[0] ?? undefined;
}

/** Direct element children with this name (not descendants). */
export function directChildren(el: Element, ns: string, local: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === local) out.push(n as Element);
  }
  return out;
}

export interface Relationship {
  id: string;
  type: string;
  /** The part it points to (ppt/media/image1.png), or the raw target when external. */
  target: string;
  external: boolean;
}

/** `ppt/slideMasters/slideMaster1.xml` → `ppt/slideMasters/_rels/slideMaster1.xml.rels`. */
export function relsPartOf(part: string): string {
  const dir = posix.dirname(part);
  return `${dir === '.' ? '' : `${dir}/`}_rels/${posix.basename(part)}.rels`;
}

/** A relationship target resolved against the part that holds it (targets are relative to its folder). */
export function resolveTarget(part: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return posix.normalize(posix.join(posix.dirname(part), target));
}

/** A part name written as a target relative to another part's folder. */
export function relativeTarget(fromPart: string, toPart: string): string {
  return posix.relative(posix.dirname(fromPart), toPart);
}

export async function readRels(zip: JSZip, part: string): Promise<Relationship[]> {
  const xml = await readPart(zip, relsPartOf(part));
  if (xml === null) return [];
  const doc = parseXml(xml, relsPartOf(part));
  return children(doc, NS.rel, 'Relationship').map((r) => {
    const external = r.getAttribute('TargetMode') === 'External';
    const target = r.getAttribute('Target') ?? '';
    return { id: r.getAttribute('Id') ?? '', type: r.getAttribute('Type') ?? '', target: external ? target : resolveTarget(part, target), external };
  });
}

export const EMU_PER_INCH = 914400;

export interface EmuBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The `<a:xfrm>` of a shape's properties (`p:spPr`), in EMU; undefined when it inherits its position. */
export function shapeBox(shape: Element): EmuBox | undefined {
  const spPr = directChildren(shape, NS.p, 'spPr')[0];
  const xfrm = spPr ? directChildren(spPr, NS.a, 'xfrm')[0] : undefined;
  const off = xfrm ? directChildren(xfrm, NS.a, 'off')[0] : undefined;
  const ext = xfrm ? directChildren(xfrm, NS.a, 'ext')[0] : undefined;
  if (!off || !ext) return undefined;
  const num = (el: Element, name: string): number => Number(el.getAttribute(name) ?? 'NaN');
  const box = { x: num(off, 'x'), y: num(off, 'y'), w: num(ext, 'cx'), h: num(ext, 'cy') };
  return Object.values(box).every(Number.isFinite) ? box : undefined;
}
