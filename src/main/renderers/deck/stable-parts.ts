// Makes a slide's parts depend on the slide alone, so re-rendering a spec where one slide changed
// leaves every other slide's parts byte-identical (versions can be compared part by part, and a
// person's diff tool shows only what changed). What pptxgenjs 4.0.1 makes global or time-dependent:
// - charts are numbered by a counter across every deck the process ever wrote (`chartN.xml`), and
//   their workbooks after it (`Microsoft_Excel_WorksheetN.xlsx`): a chart added on slide 3 renumbers
//   the charts after it;
// - pictures are named by slide position (`image-4-1.png`), and the slide's name is "Slide 4";
// - each chart's embedded workbook carries the time it was written, in its core.xml and zip dates;
// - every zip entry is dated when it was added.
// So chart, workbook and picture parts are renamed after the slide's key (its id, see slide-ids.ts):
// `chart-<key>-<n>.xml`, `Microsoft_Excel_Worksheet-<key>-<n>.xlsx`, `slide-<key>-<n>.png` (forms
// pptxgenjs never writes, and unambiguous: the last "-" segment is a number); the slide is named by
// its key, the workbooks' times are fixed and every entry gets one date.
// `docProps/core.xml` keeps the real render time: it is the file's "modified" date people see.
import { PackageParts } from './package-parts';
import { posix } from 'node:path';

/** Every zip entry's date: the DOS epoch, as reproducible builds use (PackageParts.write writes it). */
export const ZIP_DATE = new Date(Date.UTC(1980, 0, 1, 0, 0, 0));
const WORKBOOK_TIME = '1980-01-01T00:00:00Z';

const RELATIONSHIP_TARGET = /(<Relationship\b[^>]*\bTarget=")([^"]+)(")/g;

/** A relationship target as a part name: absolute ("/ppt/charts/chart1.xml") or relative to the source part's folder. */
function partOf(sourceDir: string, target: string): string {
  return target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(sourceDir, target));
}

/** The target rewritten to name `part`, in the form it was written (absolute or relative). */
function targetFor(sourceDir: string, oldTarget: string, part: string): string {
  return oldTarget.startsWith('/') ? `/${part}` : posix.relative(sourceDir, part);
}

function move(zip: PackageParts, from: string, to: string, transform?: (bytes: Uint8Array) => Uint8Array): void {
  let bytes = zip.bytes(from);
  if (!bytes) throw new Error(`stable parts: ${from} is missing`);
  if (transform) bytes = transform(bytes);
  zip.remove(from);
  zip.set(to, bytes);
}

/** A chart's workbook without the time it was written: fixed core.xml times and zip dates. */
function stableWorkbook(bytes: Uint8Array): Uint8Array {
  const book = PackageParts.read(bytes);
  const xml = book.text('docProps/core.xml');
  if (xml !== undefined) book.set('docProps/core.xml', xml.replace(/(<dcterms:(created|modified)\b[^>]*>)[^<]*(<\/dcterms:\2>)/g, `$1${WORKBOOK_TIME}$3`));
  return book.write();
}

/**
 * Renames output slide n's chart, workbook and picture parts after `keys[n - 1]` and names the
 * slide by it. Parts are moved (never shared between slides by pptxgenjs); content-type overrides
 * and relationship targets follow.
 */
export function nameSlidePartsByKey(zip: PackageParts, keys: readonly string[]): void {
  const typesFile = zip.text('[Content_Types].xml');
  let types = typesFile ?? '';
  const moved = new Map<string, string>();
  for (const [i, key] of keys.entries()) {
    const n = i + 1;
    const slidePart = `ppt/slides/slide${n}.xml`;
    const xml = zip.text(slidePart);
    if (xml === undefined) continue;
    zip.set(slidePart, xml.replace(/<p:cSld name="[^"]*"/, `<p:cSld name="${key}"`));

    const relsPart = `ppt/slides/_rels/slide${n}.xml.rels`;
    const rels = zip.text(relsPart);
    if (rels === undefined) continue;
    const dir = 'ppt/slides';
    const renames: { from: string; to: string; kind: 'chart' | 'media' }[] = [];
    let charts = 0;
    let pictures = 0;
    const plannedTo = new Map<string, string>();
    rels.replace(RELATIONSHIP_TARGET, (whole, _open: string, target: string) => {
      const part = partOf(dir, target);
      if (plannedTo.has(part) || moved.has(part)) return whole;
      if (/^ppt\/charts\/[^/]+\.xml$/.test(part)) {
        const to = `ppt/charts/chart-${key}-${++charts}.xml`;
        plannedTo.set(part, to);
        renames.push({ from: part, to, kind: 'chart' });
      } else if (part.startsWith('ppt/media/')) {
        const to = `ppt/media/slide-${key}-${++pictures}${posix.extname(part)}`;
        plannedTo.set(part, to);
        renames.push({ from: part, to, kind: 'media' });
      }
      return whole;
    });
    for (const r of renames) {
      if (r.kind === 'chart') {
        moveChart(zip, r.from, r.to);
        types = types.replace(`PartName="/${r.from}"`, `PartName="/${r.to}"`);
      } else {
        move(zip, r.from, r.to);
      }
      moved.set(r.from, r.to);
    }
    const rewritten = rels.replace(RELATIONSHIP_TARGET, (whole, open: string, target: string, close: string) => {
      const to = moved.get(partOf(dir, target));
      return to ? `${open}${targetFor(dir, target, to)}${close}` : whole;
    });
    if (rewritten !== rels) zip.set(relsPart, rewritten);
  }
  if (typesFile !== undefined) zip.set('[Content_Types].xml', types);
}

/** Moves a chart part, its relationships and its workbook (named after the chart). */
function moveChart(zip: PackageParts, from: string, to: string): void {
  move(zip, from, to);
  const relsFrom = `${posix.dirname(from)}/_rels/${posix.basename(from)}.rels`;
  const rels = zip.text(relsFrom);
  if (rels === undefined) return;
  const chartDir = posix.dirname(from);
  const stem = posix.basename(to, '.xml').replace(/^chart-/, '');
  const books: [string, string][] = [];
  const rewritten = rels.replace(RELATIONSHIP_TARGET, (whole, open: string, target: string, close: string) => {
    const part = partOf(chartDir, target);
    if (!part.startsWith('ppt/embeddings/')) return whole;
    const book = `ppt/embeddings/Microsoft_Excel_Worksheet-${stem}${books.length === 0 ? '' : `.${books.length + 1}`}${posix.extname(part)}`;
    books.push([part, book]);
    return `${open}${targetFor(chartDir, target, book)}${close}`;
  });
  for (const [book, name] of books) move(zip, book, name, stableWorkbook);
  zip.remove(relsFrom);
  zip.set(`${posix.dirname(to)}/_rels/${posix.basename(to)}.rels`, rewritten);
}
