// render_deck: the agent's way to turn a deck spec (inline or a JSON file it wrote) into a .pptx in
// artifacts/. Everything the model must act on comes back as text: each validation error with its
// `slides[i]...` path, and the quality report slide by slide.
import { z } from 'zod';
import { type DeckSpec, type QualityReport, validateDeckSpec } from '../../shared/specs/deck';
import { assignSlideIds } from '../../shared/specs/slide-ids';
import { FolioError, ValidationError } from '../../shared/errors';
import { availableThemeNames, parseDeckJson, verificationNote } from '../renderers/deck';
import { describeVersion, renderDeckVersion } from '../renderers/deck/render-version';
import { ARTIFACTS_DIR } from './artifacts';
import { OUTLINE_PATH, readOutlineFile } from '../workspace/outline-file';
import { readInside, taskFolders, writeInside } from '../workspace/task-paths';
import { errnoCode } from './text';
import { ALL_AREAS, resolveToolPath, type Tool, type ToolContext, ToolError, ToolFileNotFoundError, type ToolTraits } from './types';

const MAX_SPEC_BYTES = 5 * 1024 * 1024;

const parameters = z.object({
  spec_path: z
    .string()
    .optional()
    .describe('A deck spec JSON file relative to the task folder (e.g. "deck.json"). Give this or spec, not both.'),
  spec: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The deck spec itself, as a JSON object. Give this or spec_path, not both.'),
  name: z
    .string()
    .max(120)
    .optional()
    .describe('File name for the .pptx (".pptx" is added). Default: from the deck title.'),
});

export interface RenderDeckToolOptions {
  /** `<data>/themes`: user themes a spec may name besides the built-in ones. */
  themesDir?: string;
  /** `<data>/templates`: imported PowerPoint templates a spec may name as its theme. */
  templatesDir?: string;
  /** Folders LibreOffice must not see while it converts the deck for the rendered check (Folio's data folder). */
  hiddenPaths?: readonly string[];
}

/** The themes a spec may name, read when the tool is made (each run): imported templates appear as they are added. */
function themeChoices(options: RenderDeckToolOptions): string {
  const { themes, templates } = availableThemeNames(options);
  const own = templates.length > 0 ? `, or the person's imported template: ${templates.join('|')} (its master, colours and fonts)` : '';
  return `theme? (${themes.join('|')}${own})`;
}

const describe = (options: RenderDeckToolOptions): string =>
  'Render a slide deck (.pptx) into artifacts/ from a deck spec: either spec_path (a JSON file in the task folder) ' +
  `or spec (the JSON object). Spec: {title, subtitle?, author?, date?, ${themeChoices(options)}, ` +
  'aspect? ("16:9"|"4:3"), language? ("zh-CN"|"en"...), footer?, slides: [...]}. Each slide has "layout" and optional "notes": ' +
  'title {title?, subtitle?}; section {title, subtitle?}; bullets {title, bullets: (string | {text, sub: string[]})[]}; ' +
  'two_column {title, left, right} where each side is exactly one of {bullets} | {image, caption?} | {text} | {code, language?} ' +
  '(code: set line for line in a monospace face, never wrapped; keep lines under ~50 characters; never put code in text or bullets); ' +
  'image {title, image, caption?}; chart {title, chart: {type: bar|column|line|pie|doughnut|area|scatter, categories, ' +
  'series: [{name, values}], title?, x_title?, y_title?, unit?}}; table {title, table: {header, rows}}; quote {quote, by?, title?}; ' +
  'closing {title?, subtitle?}. Unknown keys are errors. Image paths are relative to the task folder (not to the spec file). ' +
  'Every slide has a stable "id" (like "s3"); slides without one get the next free sN, written back into the spec file: keep ' +
  'the ids when you edit, and when asked to change named slides change only those. ' +
  'Never overwrites: a second render of the same name becomes name-v2.pptx (the result says which slides changed). Returns the file path, the slide count and a ' +
  'quality report (text shrunk, split onto continuation slides, cut, too many words, missing images, low contrast; and, ' +
  'when LibreOffice is installed, words found off the slide, outside their box, in the footer or overlapping, found by ' +
  'reading the rendered slides back): fix the spec and render again when the report shows problems.';

// Writes the working folder too: slide ids it assigns go back into the spec file.
const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: ALL_AREAS, write: ['artifact', 'work'] }, writesArtifacts: true, endsTurn: false };

export function createRenderDeckTool(options: RenderDeckToolOptions = {}): Tool<typeof parameters> {
  return {
    name: 'render_deck',
    description: describe(options),
    parameters,
    traits,
    assess(args) {
      const source = args.spec_path !== undefined ? args.spec_path : 'an inline spec';
      return { risk: 'standard', detail: `Render a deck from ${source} into ${ARTIFACTS_DIR}/` };
    },
    async execute(args, ctx) {
      if (ctx.signal.aborted) throw new ToolError('Cancelled before rendering.');
      await assertOutlineApproved(ctx);
      const loaded = await loadSpec(args, ctx);
      const { spec, label, ids } = await withSlideIds(loaded, ctx);
      const total = spec.slides.length;
      ctx.progress?.({ step: 'render_deck' }, 0, total);

      const { abs: outDir, root: outRoot } = resolveToolPath(ctx, traits, ARTIFACTS_DIR, 'write');
      const rendered = await renderDeckVersion(spec, {
        baseDir: ctx.root,
        taskRoot: outRoot,
        outDir,
        fileName: deckFileName(args.name, spec.title),
        specPath: loaded.file?.rel ?? null,
        onRendered: () => ctx.progress?.({ step: 'render_deck' }, total, total),
        ...(options.themesDir ? { themesDir: options.themesDir } : {}),
        check: {
          signal: ctx.signal,
          ...(options.hiddenPaths ? { hiddenPaths: options.hiddenPaths } : {}),
          ...(ctx.progress ? { onProgress: (done: number, of: number) => ctx.progress?.({ step: 'check_slides' }, done, of) } : {}),
        },
        ...(options.templatesDir ? { templatesDir: options.templatesDir } : {}),
      });
      const { result, rel } = rendered;

      const head = `Rendered ${rel} from ${label}: ${plural(result.slideCount, 'slide')} in the file (${plural(total, 'spec slide')}).`;
      const notes = result.notes.map((n) => `Note: ${n}`).join('\n');
      const lines = [head, ids.note, notes, describeVersion(rendered.version), formatQualityReport(result.report)].filter(Boolean);
      return { content: lines.join('\n'), touched: [rel, ...(ids.written ? [ids.written] : [])] };
    },
  };
}

type DeckArgs = z.output<typeof parameters>;

/**
 * Outline first: a task whose outline waits for the person renders nothing until they approve it.
 * A task without an outline (a quick one-off deck) renders as before.
 */
async function assertOutlineApproved(ctx: ToolContext): Promise<void> {
  const state = await readOutlineFile(taskFolders(ctx).task);
  if (state.kind === 'invalid') throw new ToolError(`${state.reason}. Propose the outline again with propose_outline.`);
  if (state.kind === 'ok' && state.outline.status !== 'approved') {
    throw new ToolError(
      `The person has not approved the outline yet (${OUTLINE_PATH}). Stop and wait for their approval; ` +
        'it arrives as a message with the approved outline. Do not render before then.',
    );
  }
}

interface LoadedSpec {
  spec: DeckSpec;
  label: string;
  /** The JSON as written (ids are added to it, nothing else changes). */
  raw: unknown;
  /** The spec file, when the spec came from one. */
  file?: { rel: string; root: string; area: string };
}

/** The validated spec (defaults filled) and how to name its source in messages. */
async function loadSpec(args: DeckArgs, ctx: ToolContext): Promise<LoadedSpec> {
  const hasPath = args.spec_path !== undefined && args.spec_path !== '';
  const hasSpec = args.spec !== undefined;
  if (hasPath && hasSpec) throw new ToolError('Give either spec_path or spec, not both.');
  if (!hasPath && !hasSpec) throw new ToolError('Give the deck spec: spec_path (a JSON file in the task folder) or spec (the JSON object).');

  let raw: unknown = args.spec;
  let label = 'the inline spec';
  let file: LoadedSpec['file'];
  if (hasPath && args.spec_path !== undefined) {
    label = args.spec_path;
    raw = await readSpecFile(ctx, args.spec_path);
    const { rel, root, area } = resolveToolPath(ctx, traits, args.spec_path, 'read');
    file = { rel, root, area };
  }
  const checked = validateDeckSpec(raw);
  if (!checked.ok) {
    const lines = checked.errors.map((e) => `- ${e}`).join('\n');
    throw new ToolError(`The deck spec (${label}) is invalid (${plural(checked.errors.length, 'error')}); fix and render again:\n${lines}`, { kind: 'invalid_spec', ...(hasPath && args.spec_path !== undefined ? { path: args.spec_path } : {}), count: checked.errors.length });
  }
  return { spec: checked.spec, label, raw, ...(file ? { file } : {}) };
}

/**
 * Gives slides without an id the next free sN and writes them into the spec file (only the ids are
 * added; the file is re-indented), so the next edit keeps them. An inline spec or one outside the
 * working folder cannot be written: the model is told the ids instead.
 */
async function withSlideIds(loaded: LoadedSpec, ctx: ToolContext): Promise<{ spec: DeckSpec; label: string; ids: { note: string; written?: string } }> {
  const { ids, assigned } = assignSlideIds(loaded.spec.slides.map((s) => s.id));
  if (assigned.length === 0) return { spec: loaded.spec, label: loaded.label, ids: { note: '' } };
  const spec: DeckSpec = { ...loaded.spec, slides: loaded.spec.slides.map((s, i) => ({ ...s, id: ids[i] })) };
  const named = assigned.map((i) => `slides[${i}] ${ids[i] ?? ''}`);
  const list = named.length > 12 ? `${named.slice(0, 12).join(', ')}, … (${named.length} in all)` : named.join(', ');
  const raw = loaded.raw as { slides?: unknown[] };
  if (loaded.file && loaded.file.area === 'work' && Array.isArray(raw.slides)) {
    raw.slides = raw.slides.map((slide, i) => (assigned.includes(i) && slide && typeof slide === 'object' ? { id: ids[i], ...slide } : slide));
    if (ctx.signal.aborted) throw new ToolError('Cancelled before rendering.');
    await writeInside(loaded.file.root, loaded.file.rel, `${JSON.stringify(raw, null, 2)}\n`);
    return { spec, label: loaded.label, ids: { note: `Slide ids added to ${loaded.file.rel}: ${list}. Keep them when you edit the spec.`, written: loaded.file.rel } };
  }
  return { spec, label: loaded.label, ids: { note: `Slides without an id were given: ${list}. Put these ids in the spec when you render it again.` } };
}

async function readSpecFile(ctx: ToolContext, specPath: string): Promise<unknown> {
  const { rel, root } = resolveToolPath(ctx, traits, specPath, 'read');
  let text: string;
  try {
    text = (await readInside(root, rel, { maxBytes: MAX_SPEC_BYTES })).toString('utf8');
  } catch (err) {
    if (err instanceof FolioError && err.code === 'payload_too_large') throw new ToolError(`${specPath} is larger than ${MAX_SPEC_BYTES / 1024 / 1024} MB; a deck spec is much smaller.`);
    const code = errnoCode(err);
    if (code === 'ENOENT') throw new ToolFileNotFoundError(specPath, `Deck spec not found: ${specPath}`);
    if (code === 'EISDIR') throw new ToolError(`${specPath} is a folder; give the deck spec JSON file.`);
    throw err;
  }
  try {
    return parseDeckJson(text.replace(/^\uFEFF/u, ''), specPath);
  } catch (err) {
    // The engine names line and column; the model sees it as a tool error either way.
    if (err instanceof ValidationError) throw new ToolError(err.message);
    throw err;
  }
}

/** Windows refuses these as file names whatever the extension. */
const RESERVED_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)$/iu;

/** The .pptx name: the caller's name made safe, else an ASCII slug of the title, else "deck". */
export function deckFileName(name: string | undefined, title: string): string {
  const fromName = name === undefined ? '' : sanitizeName(name);
  const stem = fromName || titleSlug(title) || 'deck';
  return `${RESERVED_NAMES.test(stem) ? `${stem}-deck` : stem}.pptx`;
}

function sanitizeName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(/\.pptx$/iu, '')
    .replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/gu, '-')
    .replace(/\s+/gu, ' ')
    .replace(/^[\s.-]+|[\s.]+$/gu, '');
  return Array.from(cleaned).slice(0, 80).join('').trim();
}

/** Lower-case ASCII words joined by "-": accents are dropped, other scripts left out. */
export function titleSlug(title: string): string {
  const ascii = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '');
  if (ascii.length <= 60) return ascii;
  const cut = ascii.slice(0, 60);
  const lastDash = cut.lastIndexOf('-');
  return lastDash > 20 ? cut.slice(0, lastDash) : cut;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function slideRange(outputSlides: readonly number[]): string {
  if (outputSlides.length === 0) return 'not in the file';
  const first = outputSlides[0];
  const last = outputSlides[outputSlides.length - 1];
  return first === last ? `file slide ${first}` : `file slides ${first}-${last}`;
}

/**
 * The report as the model needs it: every issue under the spec index it must edit (`slides[i]`, as in
 * validation errors), with the slide numbers a person would see in PowerPoint.
 */
export function formatQualityReport(report: QualityReport): string {
  const { summary } = report;
  const withIssues = report.slides.filter((s) => s.issues.length > 0);
  const how = verificationNote(report.checked ?? { mode: 'estimated' });
  const head = `Quality report, ${how}: ${plural(summary.issues, 'issue')}; ${summary.slides_in} spec slides became ${summary.slides_out} slides.`;
  if (withIssues.length === 0) return `${head}\nNo issues.`;
  const blocks = withIssues.map((slide) => {
    const lines = slide.issues.map((issue) => `  - ${issue.kind}: ${issue.message}`);
    return [`slides[${slide.index}] (${slideRange(slide.output_slides)}):`, ...lines].join('\n');
  });
  return [head, ...blocks].join('\n');
}

