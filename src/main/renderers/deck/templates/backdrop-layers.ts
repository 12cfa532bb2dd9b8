// What a template layout paints behind the slide's text, as layers the preview can draw: the
// background (the layout's, else the master's: a colour, or a picture), then the master's shapes
// (unless the layout hides them) and the layout's own, back to front: filled shapes as colours,
// pictures as data: URLs. A dark photo or a full-bleed shape is then as dark in the preview as on the slide.
import type { Document, Element } from '@xmldom/xmldom';
import type JSZip from 'jszip';
import { posix } from 'node:path';
import { type BackdropLayer, type TemplateRecord } from '../../../../shared/specs/templates';
import { imageMimeOf } from '../../../sources/kinds';
import { type ColourMap, type ColourScheme, resolveColour } from './colours';
import { directChildren, first, NS, parseXml, readPart, readRels, shapeBox } from './ooxml';
import { drawnShapes, showsMasterShapes } from './paint';
import { readColourMap } from './read';

const IMAGE_MIME: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml' };

/** At most this many picture bytes per preview (a template with huge photos still previews, with colours). */
const MAX_PICTURE_BYTES = 8 * 1024 * 1024;

interface Part {
  doc: Document;
  /** Relationship id → target part. */
  rels: Map<string, string>;
}

interface Reader {
  zip: JSZip;
  scheme: ColourScheme;
  map: ColourMap;
  size: { cx: number; cy: number };
  budget: { bytes: number };
}

async function readDocPart(zip: JSZip, part: string): Promise<Part | undefined> {
  const xml = await readPart(zip, part);
  if (xml === null) return undefined;
  const rels = new Map((await readRels(zip, part)).filter((r) => !r.external).map((r) => [r.id, r.target]));
  return { doc: parseXml(xml, part), rels };
}

async function pictureUrl(r: Reader, part: Part, blipHolder: Element): Promise<string | undefined> {
  const embed = first(blipHolder, NS.a, 'blip')?.getAttributeNS(NS.r, 'embed') ?? '';
  const target = part.rels.get(embed);
  const named = target ? IMAGE_MIME[posix.extname(target).toLowerCase()] : undefined;
  // EMF/WMF pictures cannot be drawn by a browser: the layer is left out.
  if (!target || !named) return undefined;
  const bytes = await r.zip.file(target)?.async('uint8array');
  if (!bytes || bytes.byteLength > r.budget.bytes) return undefined;
  r.budget.bytes -= bytes.byteLength;
  // A raster picture is typed by its bytes: a JPEG in a part named .png is read (and sampled) as a JPEG.
  const mime = imageMimeOf(bytes.subarray(0, 16)) ?? named;
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

const FULL = { x: 0, y: 0, w: 1, h: 1 };

async function backgroundOf(r: Reader, part: Part): Promise<BackdropLayer | undefined> {
  const bg = first(part.doc, NS.p, 'bg');
  if (!bg) return undefined;
  const bgPr = directChildren(bg, NS.p, 'bgPr')[0];
  const blip = bgPr ? directChildren(bgPr, NS.a, 'blipFill')[0] : undefined;
  if (blip) {
    const image = await pictureUrl(r, part, blip);
    if (image) return { ...FULL, image };
  }
  const colour = resolveColour(bgPr ?? directChildren(bg, NS.p, 'bgRef')[0], r.scheme, r.map);
  return colour ? { ...FULL, color: colour } : undefined;
}

async function shapesOf(r: Reader, part: Part): Promise<BackdropLayer[]> {
  const out: BackdropLayer[] = [];
  for (const shape of drawnShapes(part.doc)) {
    const emu = shapeBox(shape);
    if (!emu || emu.w <= 0 || emu.h <= 0) continue;
    const box = { x: emu.x / r.size.cx, y: emu.y / r.size.cy, w: emu.w / r.size.cx, h: emu.h / r.size.cy };
    const blipHolder = shape.localName === 'pic' ? directChildren(shape, NS.p, 'blipFill')[0] : undefined;
    const spPr = directChildren(shape, NS.p, 'spPr')[0];
    const filledWithPicture = spPr ? directChildren(spPr, NS.a, 'blipFill')[0] : undefined;
    const picture = blipHolder ?? filledWithPicture;
    if (picture) {
      const image = await pictureUrl(r, part, picture);
      if (image) out.push({ ...box, image });
      continue;
    }
    const fill = spPr ? (directChildren(spPr, NS.a, 'solidFill')[0] ?? directChildren(spPr, NS.a, 'gradFill')[0]) : undefined;
    const colour = fill ? resolveColour(fill, r.scheme, r.map) : null;
    if (colour) out.push({ ...box, color: colour });
  }
  return out;
}

/** For each layout part asked for, the layers it paints, back to front (the first covers the slide). */
export async function backdropLayers(zip: JSZip, record: TemplateRecord, layoutParts: readonly string[]): Promise<Map<string, BackdropLayer[]>> {
  const out = new Map<string, BackdropLayer[]>();
  const master = await readDocPart(zip, record.master);
  if (!master) return out;
  const r: Reader = { zip, scheme: record.colours, map: readColourMap(master.doc), size: record.slide_size, budget: { bytes: MAX_PICTURE_BYTES } };
  const masterBackground = await backgroundOf(r, master);
  const masterShapes = await shapesOf(r, master);
  const fallback: BackdropLayer = { ...FULL, color: record.colours.lt1 ?? 'FFFFFF' };
  for (const partName of new Set(layoutParts)) {
    const layout = await readDocPart(zip, partName);
    const background = (layout ? await backgroundOf(r, layout) : undefined) ?? masterBackground ?? fallback;
    const shown = showsMasterShapes(layout?.doc) ? masterShapes : [];
    out.set(partName, [background, ...shown, ...(layout ? await shapesOf(r, layout) : [])].slice(0, 60));
  }
  return out;
}
