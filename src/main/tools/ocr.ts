// ocr {path, pages}: reads scanned PDF pages (no text layer) and PNG/JPEG images by sending page
// images to a vision-capable model profile and returning its markdown transcription, page-marked
// like extracted sources (`<!-- page N -->`).
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { FolioError } from '../../shared/errors';
import { describeImages, type VisionImageMime, type VisionOptions } from '../llm/vision';
import type { ModelProfile } from '../models/profile-schema';
import { formatPageList, PageRangeError, parsePageSpec } from '../sources';
import { countPdfPages, type PopplerOptions, type RenderedPage, renderPdfPages } from './ocr-render';
import { openInside, readInside } from '../workspace/task-paths';
import { errnoCode, formatBytes } from './text';
import { ALL_AREAS, resolveToolPath, type Tool, type ToolContext, ToolError, ToolFileNotFoundError, ToolTooLargeError, type ToolTraits } from './types';

export const OCR_MAX_PAGES = 10;
export const OCR_DPI = 150;
/** Stays under the loop's 16,000-character cap so the footer is never cut off. */
const MAX_OUTPUT_CHARS = 15_000;
/** Providers accept images up to about 20 MB; base64 adds a third. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export const NO_VISION_PROFILE =
  'No vision-capable model profile: mark one with `vision: true` in config/models (and give it a key). Until then scanned pages and images cannot be read.';

export const OCR_PROMPT = [
  'Transcribe the text of this page image faithfully into Markdown.',
  'Keep the original language: do not translate. Keep the reading order, headings, lists and paragraphs.',
  'Render tables as Markdown tables and formulas as LaTeX ($...$). Write [illegible] for text you cannot read.',
  'Output only the transcription: no commentary, no summary, no code fences.',
].join('\n');

export interface VisionChoice {
  profile: ModelProfile;
  apiKey: string;
}

export type RenderPages = (pdfAbs: string, pages: number[], dpi: number, signal: AbortSignal) => Promise<RenderedPage[]>;

export interface OcrToolOptions {
  /** The profile that reads the images, chosen when the tool runs (keys and profiles can change mid-task). */
  pickVisionProfile: () => VisionChoice | null;
  renderPages?: RenderPages;
  countPages?: (pdfAbs: string, signal: AbortSignal) => Promise<number>;
  /** Environment for the default poppler commands (tests empty PATH to simulate a missing poppler). */
  popplerEnv?: NodeJS.ProcessEnv;
  vision?: Omit<VisionOptions, 'outbound'>;
  /** Each provider call's usage, so the caller can add it to the task's cost. */
  onUsage?: (profile: ModelProfile, usage: { promptTokens: number; completionTokens: number }) => void;
}

const parameters = z.object({
  path: z.string().describe('A PDF, PNG or JPEG file relative to the task folder, e.g. "source/scan.pdf".'),
  pages: z
    .string()
    .optional()
    .describe(`PDF pages to transcribe, e.g. "3", "3-7" or "1,4,9-10"; at most ${OCR_MAX_PAGES} per call. Default: every page of a PDF with at most ${OCR_MAX_PAGES} pages. An image is page 1.`),
});

type Args = z.output<typeof parameters>;

type Target = { kind: 'pdf'; abs: string; rel: string; root: string } | { kind: 'image'; abs: string; rel: string; root: string; mime: VisionImageMime; size: number };

/**
 * Which profile reads images for a task, in order of preference: the task's own profile (the page
 * goes where the conversation already goes); a `worker` profile (the cheap model, seed 000's dual
 * model), at the task's provider first; then any vision profile, again at the task's provider first.
 * Only profiles marked `vision: true` that have a key (or need none) qualify.
 */
export function pickVisionProfile(
  profiles: readonly ModelProfile[],
  currentProfileId: string | null,
  hasKey: (profile: ModelProfile) => boolean,
): ModelProfile | null {
  const current = profiles.find((p) => p.id === currentProfileId) ?? null;
  const rank = (p: ModelProfile): number => {
    if (p.id === currentProfileId) return 0;
    const sameProvider = current !== null && p.provider === current.provider;
    if (p.role === 'worker') return sameProvider ? 1 : 2;
    return sameProvider ? 3 : 4;
  };
  let best: ModelProfile | null = null;
  for (const p of profiles) {
    if (!p.vision || !hasKey(p)) continue;
    // Strictly better only, so ties keep the configured order.
    if (best === null || rank(p) < rank(best)) best = p;
  }
  return best;
}

/** Models sometimes wrap the whole answer in a ```markdown fence despite being asked not to. */
export function unwrapFence(text: string): string {
  const trimmed = text.trim();
  const m = /^```[\w-]*\n([\s\S]*?)\n```$/u.exec(trimmed);
  return (m?.[1] ?? trimmed).trim();
}

function imageMime(head: Uint8Array): VisionImageMime | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= png.length && png.every((b, i) => head[i] === b)) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return null;
}

function isPdf(head: Uint8Array): boolean {
  // The PDF spec lets readers accept the header anywhere in the first 1024 bytes.
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).subarray(0, 1024).includes('%PDF-');
}

// `read`, not `fetch`: the page goes to a model profile the person configured and keyed for this
// purpose (`vision: true`), preferably the one the conversation already uses, and its content is
// what `read` would put in that conversation had the PDF a text layer. Nothing leaves for an
// address the model chooses, which is what `fetch` approvals guard against.
const traits: ToolTraits = { kind: 'read', runsCode: false, network: false, paths: { read: ALL_AREAS, write: [] }, writesArtifacts: false, endsTurn: false };

async function resolveTarget(ctx: ToolContext, relPath: string): Promise<Target> {
  const { abs, rel, root } = resolveToolPath(ctx, traits, relPath, 'read');
  let stat;
  try {
    stat = await fs.stat(abs);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') throw new ToolFileNotFoundError(relPath, `File not found: ${relPath}`);
    throw err;
  }
  if (stat.isDirectory()) throw new ToolError(`${relPath} is a directory; give a PDF, PNG or JPEG file.`);
  const handle = await openInside(root, rel);
  const head = new Uint8Array(1024);
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  const bytes = head.subarray(0, length);
  const mime = imageMime(bytes);
  if (mime) return { kind: 'image', abs, rel, root, mime, size: stat.size };
  if (isPdf(bytes)) return { kind: 'pdf', abs, rel, root };
  throw new ToolError(`${rel} is not a PDF, PNG or JPEG file; ocr reads only those (use read for text files and extracted sources).`);
}

function pagesFor(target: Target, spec: string | undefined, pageCount: number): number[] {
  if (spec === undefined) {
    if (pageCount > OCR_MAX_PAGES) {
      throw new ToolError(`${target.rel} has ${pageCount} pages; OCR reads at most ${OCR_MAX_PAGES} per call. Pass pages, e.g. pages="1-${OCR_MAX_PAGES}".`);
    }
    return Array.from({ length: pageCount }, (_, i) => i + 1);
  }
  let wanted: number[];
  try {
    wanted = parsePageSpec(spec, pageCount);
  } catch (err) {
    if (err instanceof PageRangeError) throw new ToolError(`${target.rel}: ${err.message}${target.kind === 'image' ? ' (an image is one page)' : ''}`);
    throw err;
  }
  if (wanted.length > OCR_MAX_PAGES) {
    throw new ToolError(
      `pages "${spec}" names ${wanted.length} pages; OCR reads at most ${OCR_MAX_PAGES} per call (e.g. pages="${formatPageList(wanted.slice(0, OCR_MAX_PAGES))}").`,
    );
  }
  return wanted;
}

function isCancel(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (err instanceof FolioError && err.code === 'cancelled');
}

export function createOcrTool(opts: OcrToolOptions): Tool<typeof parameters> {
  const poppler = (signal: AbortSignal): PopplerOptions => ({ signal, ...(opts.popplerEnv ? { env: opts.popplerEnv } : {}) });
  const renderPages: RenderPages = opts.renderPages ?? ((abs, pages, dpi, signal) => renderPdfPages(abs, pages, dpi, poppler(signal)));
  const countPages = opts.countPages ?? ((abs, signal) => countPdfPages(abs, poppler(signal)));

  async function execute(args: Args, ctx: ToolContext): Promise<{ content: string }> {
    const choice = opts.pickVisionProfile();
    if (choice === null) throw new ToolError(NO_VISION_PROFILE);
    const target = await resolveTarget(ctx, args.path);
    if (target.kind === 'image' && target.size > MAX_IMAGE_BYTES) {
      throw new ToolTooLargeError(`${target.rel} is ${formatBytes(target.size)}; images over ${formatBytes(MAX_IMAGE_BYTES)} are refused by providers. Shrink it first.`, target.rel);
    }
    const pageCount = target.kind === 'pdf' ? await countPages(target.abs, ctx.signal) : 1;
    const wanted = pagesFor(target, args.pages, pageCount);
    const name = path.posix.basename(target.rel);

    const parts: string[] = [];
    const done: number[] = [];
    let stopped: string | null = null;
    for (const [i, page] of wanted.entries()) {
      ctx.progress?.({ step: 'ocr', file: name }, i, wanted.length);
      try {
        const image =
          target.kind === 'image'
            ? { mime: target.mime, data: new Uint8Array(await readInside(target.root, target.rel)) }
            : { mime: 'image/png' as const, data: await renderOne(target.abs, page, ctx.signal) };
        const result = await describeImages(choice.profile, choice.apiKey, { prompt: OCR_PROMPT, images: [image] }, ctx.signal, { ...opts.vision, outbound: ctx.outbound });
        opts.onUsage?.(choice.profile, result.usage);
        parts.push(`<!-- page ${page} -->\n\n${unwrapFence(result.text)}`);
        done.push(page);
      } catch (err) {
        if (isCancel(err, ctx.signal)) throw err;
        // Pages already transcribed were paid for: keep them and say where to pick up.
        if (done.length === 0 || !(err instanceof ToolError || err instanceof FolioError)) throw err;
        stopped = `stopped at page ${page}: ${err.message}`;
        break;
      }
    }
    ctx.progress?.({ step: 'ocr', file: name }, done.length, wanted.length);
    return { content: assemble(target.rel, parts, done, wanted, pageCount, choice.profile, stopped) };
  }

  async function renderOne(abs: string, page: number, signal: AbortSignal): Promise<Uint8Array> {
    const rendered = await renderPages(abs, [page], OCR_DPI, signal);
    const png = rendered.find((r) => r.page === page)?.png;
    if (!png) throw new ToolError(`Page ${page} could not be rendered.`);
    return png;
  }

  return {
    name: 'ocr',
    description:
      'Transcribe scanned PDF pages (sources whose extraction says "no text layer") or PNG/JPEG images into Markdown with a ' +
      `vision-capable model. Returns the text with <!-- page N --> markers; at most ${OCR_MAX_PAGES} pages per call. ` +
      'Use read for PDFs that have a text layer: it is exact and free. OCR text may contain recognition errors; check figures before relying on them.',
    parameters,
    traits,
    execute,
  };
}

function assemble(
  rel: string,
  parts: string[],
  done: number[],
  wanted: number[],
  pageCount: number,
  profile: ModelProfile,
  stopped: string | null,
): string {
  const notes: string[] = [];
  let body = parts.join('\n\n');
  if (body.length > MAX_OUTPUT_CHARS) {
    body = `${body.slice(0, MAX_OUTPUT_CHARS)}\n[cut: the output limit was reached; ask for fewer pages at a time]`;
  }
  const missing = wanted.filter((p) => !done.includes(p));
  notes.push(`OCR of ${rel}, page${done.length === 1 ? '' : 's'} ${formatPageList(done)} of ${pageCount}, by ${profile.name} (${profile.id}).`);
  if (stopped) notes.push(`OCR ${stopped}. To continue, call ocr with pages="${formatPageList(missing)}".`);
  return `${body}\n\n(${notes.join(' ')})`;
}
