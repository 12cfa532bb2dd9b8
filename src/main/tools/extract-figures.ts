// extract_figures {path, pages?, region?}: saves the figures of a source PDF as PNG files under
// work/figures/<pdf name>/ (p3-fig1.png, ...) with an index (work/figures/index.json: page, box on
// the page, pixel size, caption), so the agent can put a paper's figure on a slide and cite its page.
// Embedded images are written at their own resolution by poppler's pdfimages; where they sit and
// which caption is theirs comes from pdfjs in an extraction worker (sources/figures/); a figure
// drawn with vectors is rendered from its area of the page with pdftoppm, found automatically above
// a caption no image claims, or given as `region`.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { FolioError } from '../../shared/errors';
import { formatPageList, PageRangeError, parsePageSpec } from '../sources';
import { type Box, MIN_FIGURE_PX, type PageFigures } from '../sources/figures/analyze';
import { FigureLocateError, locateFigures } from '../sources/figures/locate';
import { makeScratchDir, removeScratchDir } from '../workspace/scratch';
import { openInside, readInside, writeInside } from '../workspace/task-paths';
import { extractPageImages, FIGURES_PURPOSE, listPdfImages, type PdfImageRow, pngSize, renderRegion } from './figures-poppler';
import { countPdfPages, type PopplerOptions } from './ocr-render';
import { errnoCode } from './text';
import { resolveToolPath, type Tool, type ToolContext, ToolError, ToolFileNotFoundError, type ToolTraits } from './types';
import { FIGURE_DPI, FIGURES_INDEX, FIGURES_MAX, FIGURES_MAX_BYTES, regionReport, report, type FigureEntry, type Saved, type ScanResult } from './figures-report';

export { FIGURE_DPI, FIGURES_INDEX, FIGURES_MAX, FIGURES_MAX_BYTES, type FigureEntry } from './figures-report';

/** Pages looked at per call: a thesis has hundreds; the model asks for the rest by range. */
export const FIGURES_MAX_PAGES = 60;
/** An image drawn on this many of the pages looked at is a logo or a page ornament, not a figure. */
const DECORATION_PAGES = 3;

const parameters = z.object({
  path: z.string().describe('A PDF in the task, e.g. "source/paper.pdf".'),
  pages: z
    .string()
    .optional()
    .describe(`Pages to look at, e.g. "3", "3-7" or "1,4,9-10"; at most ${FIGURES_MAX_PAGES} per call. Default: every page (the first ${FIGURES_MAX_PAGES}).`),
  region: z
    .strictObject({
      page: z.number().int().min(1),
      x: z.number().min(0),
      y: z.number().min(0),
      width: z.number().positive(),
      height: z.number().positive(),
    })
    .optional()
    .describe(
      'Render just this area of one page to PNG (for a figure drawn with vectors that was not found): x, y from the top left of the page, ' +
        'in PDF points (1/72 inch), or all four as fractions of the page (0-1). Leave pages out when giving a region.',
    ),
});

type Args = z.output<typeof parameters>;

const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: ['source', 'work'], write: ['work'] }, writesArtifacts: false, endsTurn: false };

export interface ExtractFiguresOptions {
  /** Environment of the poppler commands (tests empty PATH to simulate a missing poppler). */
  popplerEnv?: NodeJS.ProcessEnv;
}


function isPdf(head: Uint8Array): boolean {
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).includes('%PDF-');
}

/** The PDF's name as a folder name: letters (any script), digits, dot, dash and underscore. */
export function figureFolderName(pdfRel: string): string {
  const stem = path.posix.basename(pdfRel).replace(/\.pdf$/iu, '');
  return stem.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|-+$/gu, '') || 'pdf';
}

const round = (v: number) => Math.round(v * 10) / 10;
const bboxOf = (b: Box): FigureEntry['bbox'] => ({ x: round(b.x), y: round(b.y), width: round(b.w), height: round(b.h) });

/**
 * Pairs the images pdfimages lists on a page with the images pdfjs saw painted there. Both list
 * every drawing in content order; where the lists differ (patterns, masks), each row takes the
 * first unclaimed placement of its pixel size.
 */
export function matchPlacements(rows: readonly PdfImageRow[], placed: PageFigures['images']): (PageFigures['images'][number] | null)[] {
  const sameOrder = rows.length === placed.length && rows.every((r, i) => placed[i]?.pxWidth === r.width && placed[i]?.pxHeight === r.height);
  if (sameOrder) return [...placed];
  const used = new Set<number>();
  return rows.map((r) => {
    const i = placed.findIndex((p, k) => !used.has(k) && p.pxWidth === r.width && p.pxHeight === r.height);
    if (i < 0) return null;
    used.add(i);
    return placed[i] ?? null;
  });
}

function locateError(err: unknown): Error {
  if (err instanceof FigureLocateError) {
    return err.cancelled ? new FolioError('cancelled', 'extract_figures was cancelled.') : new ToolError(`Could not find the figures' positions: ${err.message}.`);
  }
  return err instanceof Error ? err : new Error(String(err));
}

export function createExtractFiguresTool(opts: ExtractFiguresOptions = {}): Tool<typeof parameters> {
  const poppler = (signal: AbortSignal): PopplerOptions => ({ signal, purpose: FIGURES_PURPOSE, ...(opts.popplerEnv ? { env: opts.popplerEnv } : {}) });

  async function execute(args: Args, ctx: ToolContext): Promise<{ content: string; touched: string[] }> {
    const source = resolveToolPath(ctx, traits, args.path, 'read');
    await checkPdf(source.root, source.rel, args.path);
    const pageCount = await countPdfPages(source.abs, poppler(ctx.signal));
    const folder = resolveToolPath(ctx, traits, `work/figures/${figureFolderName(source.rel)}`, 'write');
    const tmp = await makeScratchDir('folio-figures-');
    try {
      const run: Run = { ctx, pdfAbs: source.abs, pdfRel: source.rel, folder, tmp, poppler: poppler(ctx.signal) };
      if (args.region) {
        if (args.pages !== undefined) throw new ToolError('Give either pages or region, not both.');
        const saved = await saveRegion(run, args.region, pageCount);
        const index = await updateIndex(ctx, (e) => !(e.source === source.rel && e.file === saved.file), [saved]);
        return { content: regionReport(saved), touched: [saved.file, index] };
      }
      const { pages, note } = pagesToScan(source.rel, args.pages, pageCount);
      const result = await saveFigures(run, pages, pageCount);
      const scanned = new Set(result.scanned);
      const index = await updateIndex(ctx, (e) => !(e.source === source.rel && e.kind !== 'region' && scanned.has(e.page)), result.saved);
      return { content: report(source.rel, pageCount, result, note), touched: [...result.saved.map((s) => s.file), index] };
    } finally {
      await removeScratchDir(tmp);
    }
  }

  return {
    name: 'extract_figures',
    description:
      'Save the figures of a PDF (a paper, a report) as PNG files to put on slides: images embedded in the PDF at their own resolution, ' +
      'and figures drawn with vectors (found above their "Figure N"/"图 N" caption, or rendered from a region you give). ' +
      `Writes work/figures/<pdf name>/p<page>-fig<n>.png and ${FIGURES_INDEX}, and returns each figure's path, page, pixel size and caption. ` +
      'Logos repeated on every page and icons are skipped.',
    parameters,
    traits,
    execute,
  };
}

interface Run {
  ctx: ToolContext;
  pdfAbs: string;
  pdfRel: string;
  folder: { root: string; rel: string };
  tmp: string;
  poppler: PopplerOptions;
}

async function checkPdf(root: string, rel: string, given: string): Promise<void> {
  let handle;
  try {
    handle = await openInside(root, rel);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') throw new ToolFileNotFoundError(given, `File not found: ${given}`);
    if (errnoCode(err) === 'EISDIR') throw new ToolError(`${given} is a directory; give a PDF file.`);
    throw err;
  }
  try {
    const head = new Uint8Array(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (!isPdf(head.subarray(0, bytesRead))) throw new ToolError(`${rel} is not a PDF; extract_figures reads figures out of PDF files.`);
  } finally {
    await handle.close();
  }
}

function pagesToScan(rel: string, spec: string | undefined, pageCount: number): { pages: number[]; note: string | null } {
  let pages: number[];
  try {
    pages = spec === undefined ? Array.from({ length: pageCount }, (_, i) => i + 1) : parsePageSpec(spec, pageCount);
  } catch (err) {
    if (err instanceof PageRangeError) throw new ToolError(`${rel}: ${err.message}`);
    throw err;
  }
  if (pages.length <= FIGURES_MAX_PAGES) return { pages, note: null };
  const rest = pages.slice(FIGURES_MAX_PAGES);
  return { pages: pages.slice(0, FIGURES_MAX_PAGES), note: `Looked at the first ${FIGURES_MAX_PAGES} pages asked for; for the rest call again with pages="${formatPageList(rest)}".` };
}

/** The next free p<page>-region<n>.png name in the folder. */
async function regionName(folderAbs: string, page: number): Promise<string> {
  const taken = new Set(await fs.readdir(folderAbs).catch(() => [] as string[]));
  let n = 1;
  while (taken.has(`p${page}-region${n}.png`)) n += 1;
  return `p${page}-region${n}.png`;
}

async function saveRegion(run: Run, region: NonNullable<Args['region']>, pageCount: number): Promise<Saved> {
  if (region.page > pageCount) throw new ToolError(`${run.pdfRel} has ${pageCount} pages; there is no page ${region.page}.`);
  const [layout] = await locateFigures(run.pdfAbs, [region.page], { signal: run.ctx.signal }).catch((err: unknown) => {
    throw locateError(err);
  });
  if (!layout) throw new ToolError(`Page ${region.page} of ${run.pdfRel} could not be read.`);
  const fractions = [region.x, region.y, region.width, region.height].every((v) => v <= 1);
  const sx = fractions ? layout.width : 1;
  const sy = fractions ? layout.height : 1;
  const x = Math.min(region.x * sx, layout.width);
  const y = Math.min(region.y * sy, layout.height);
  const box = { x, y, w: Math.min(region.width * sx, layout.width - x), h: Math.min(region.height * sy, layout.height - y) };
  if (box.w < 1 || box.h < 1) {
    throw new ToolError(`The region lies outside page ${region.page}, which is ${round(layout.width)}×${round(layout.height)} points (x, y from its top left).`);
  }
  const png = await renderRegion(run.pdfAbs, region.page, box, FIGURE_DPI, run.tmp, run.poppler);
  const file = `${run.folder.rel}/${await regionName(path.join(run.folder.root, run.folder.rel), region.page)}`;
  await writeInside(run.folder.root, file, png);
  const size = pngSize(png) ?? { width: 0, height: 0 };
  return { source: run.pdfRel, file, page: region.page, kind: 'region', bbox: bboxOf(box), page_size: { width: round(layout.width), height: round(layout.height) }, pixels: size, caption: null, bytes: png.length };
}


async function saveFigures(run: Run, pages: number[], pageCount: number): Promise<ScanResult> {
  const wanted = new Set(pages);
  // The whole document is listed (cheap: nothing is decoded) so a logo is known as one on any page.
  const everyRow = await listPdfImages(run.pdfAbs, 1, pageCount, run.poppler);
  const rows = everyRow.filter((r) => wanted.has(r.page));
  const located = new Map((await locateFigures(run.pdfAbs, pages, { signal: run.ctx.signal }).catch((err: unknown) => Promise.reject(locateError(err)))).map((p) => [p.page, p]));

  // Objects drawn on many pages are decoration (logos, rules drawn as images).
  const pagesOf = new Map<string, Set<number>>();
  for (const r of everyRow) if (r.type === 'image' && r.object !== '0 0') pagesOf.set(r.object, (pagesOf.get(r.object) ?? new Set()).add(r.page));
  const decoration = new Set([...pagesOf].filter(([, on]) => on.size >= DECORATION_PAGES).map(([object]) => object));

  const result: ScanResult = { saved: [], scanned: [], small: 0, repeated: [...decoration].map((object) => ({ object, pages: pagesOf.get(object)?.size ?? 0 })), duplicates: 0, orphans: [], stoppedAt: null };
  const seenObjects = new Set<string>();
  const seenHashes = new Set<string>();
  let bytes = 0;
  const name = path.posix.basename(run.pdfRel);

  for (const [i, page] of pages.entries()) {
    run.ctx.progress?.({ step: 'extract_figures', file: name }, i, pages.length);
    const layout = located.get(page);
    const pageRows = rows.filter((r) => r.page === page);
    const imageRows = pageRows.filter((r) => r.type === 'image');
    const placements = matchPlacements(imageRows, layout?.images ?? []);
    const wantedRows = imageRows
      .map((row, k) => ({ row, placed: placements[k] ?? null, indexOnPage: pageRows.indexOf(row) }))
      .filter(({ row }) => {
        if (row.width < MIN_FIGURE_PX || row.height < MIN_FIGURE_PX) {
          result.small += 1;
          return false;
        }
        if (decoration.has(row.object)) return false;
        if (row.object !== '0 0' && seenObjects.has(row.object)) {
          result.duplicates += 1;
          return false;
        }
        seenObjects.add(row.object);
        return true;
      });
    const drawings = layout?.drawings ?? [];
    if (result.saved.length + wantedRows.length + drawings.length > FIGURES_MAX && result.saved.length > 0) {
      result.stoppedAt = page;
      break;
    }
    const pageSize = layout ? { width: round(layout.width), height: round(layout.height) } : null;
    await removeOldFigures(path.join(run.folder.root, run.folder.rel), page);
    let n = 0;
    const keep = async (png: Uint8Array, entry: Omit<FigureEntry, 'file' | 'pixels' | 'source' | 'page' | 'page_size'>): Promise<boolean> => {
      const hash = createHash('sha256').update(png).digest('hex');
      if (seenHashes.has(hash)) {
        result.duplicates += 1;
        return true;
      }
      if (bytes + png.length > FIGURES_MAX_BYTES) return false;
      seenHashes.add(hash);
      n += 1;
      const file = `${run.folder.rel}/p${page}-fig${n}.png`;
      await writeInside(run.folder.root, file, png);
      bytes += png.length;
      result.saved.push({ ...entry, source: run.pdfRel, file, page, page_size: pageSize, pixels: pngSize(png) ?? { width: 0, height: 0 }, bytes: png.length });
      return true;
    };

    let full = false;
    if (wantedRows.length > 0) {
      const dir = path.join(run.tmp, `p${page}`);
      await fs.mkdir(dir);
      const files = await extractPageImages(run.pdfAbs, page, dir, run.poppler);
      for (const { placed, indexOnPage } of wantedRows) {
        const file = files.get(indexOnPage);
        if (!file) continue;
        const png = new Uint8Array(await fs.readFile(file));
        if (!(await keep(png, { kind: 'embedded', bbox: placed ? bboxOf(placed) : null, caption: placed?.caption ?? null }))) {
          full = true;
          break;
        }
      }
      await fs.rm(dir, { recursive: true, force: true });
    }
    for (const drawing of full ? [] : drawings) {
      const png = await renderRegion(run.pdfAbs, page, drawing, FIGURE_DPI, run.tmp, run.poppler);
      if (!(await keep(png, { kind: 'drawn', bbox: bboxOf(drawing), caption: drawing.caption }))) {
        full = true;
        break;
      }
    }
    if (full) {
      result.stoppedAt = page;
      break;
    }
    for (const caption of layout?.orphanCaptions ?? []) result.orphans.push({ page, caption });
    result.scanned.push(page);
  }
  run.ctx.progress?.({ step: 'extract_figures', file: name }, result.scanned.length, pages.length);
  return result;
}

/** A page looked at again: its earlier figures go, so the folder and the index agree. */
async function removeOldFigures(folderAbs: string, page: number): Promise<void> {
  const names = await fs.readdir(folderAbs).catch(() => [] as string[]);
  const pattern = new RegExp(`^p${page}-fig\\d+\\.png$`, 'u');
  for (const name of names) if (pattern.test(name)) await fs.rm(path.join(folderAbs, name), { force: true });
}

/** Rewrites work/figures/index.json: entries kept by `keep`, then the new ones. Returns its path. */
async function updateIndex(ctx: ToolContext, keep: (entry: FigureEntry) => boolean, added: readonly Saved[]): Promise<string> {
  const { root, rel } = resolveToolPath(ctx, traits, FIGURES_INDEX, 'write');
  let entries: FigureEntry[] = [];
  try {
    const parsed = JSON.parse((await readInside(root, rel)).toString('utf8')) as { figures?: unknown };
    if (Array.isArray(parsed.figures)) entries = parsed.figures as FigureEntry[];
  } catch {
    // Missing or not ours any more (the model may have edited it): start again.
  }
  const fresh = added.map(({ bytes: _bytes, ...entry }) => entry);
  const all = [...entries.filter((e) => typeof e === 'object' && e !== null && keep(e)), ...fresh];
  all.sort((a, b) => a.source.localeCompare(b.source) || a.page - b.page || a.file.localeCompare(b.file, 'en', { numeric: true }));
  await writeInside(root, rel, `${JSON.stringify({ figures: all }, null, 2)}\n`);
  return rel;
}
