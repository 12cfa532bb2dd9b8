// The deck engine: a validated deck spec → a .pptx written atomically into the task's artifacts,
// plus a quality report of everything fitting had to do and everything a person should check.
import PptxGenJS from 'pptxgenjs';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { FolioError, NotFoundError, ValidationError } from '../../../shared/errors';
import { deckLanguage, type DeckSpec, type QualityReport, validateDeckSpec } from '../../../shared/specs/deck';
import { type DeckPlan } from '../../../shared/specs/deck-plan';
import { slideSize } from '../../../shared/specs/deck-geometry';
import { assignSlideIds, slideKey } from '../../../shared/specs/slide-ids';
import { BUILTIN_THEMES, findTheme, isCjkCapableFace, type Theme } from '../../../shared/specs/themes';
import { writeArtifactAtomic } from '../../artifacts/write-artifact';
import { iconErrors } from './icons';
import { findJsonError } from '../json-position';
import { drawPlan } from './draw/plan';
import { createTextMeasurer } from './fonts';
import { defineMasters } from './masters';
import { planDeck } from './plan';
import { postProcessDeck } from './post-process';
import { type TextMeasurer } from './text-measurer';
import { loadUserThemes } from './user-themes';

export { loadUserThemes } from './user-themes';
export { auditCjkFonts } from './cjk-fonts';
export { planDeck } from './plan';
export { planFooterTop, planToVerifyInput } from './plan/verify-input';
export { checkRenderedDeck } from './rendered-check';
export { verificationNote } from './verify';

export interface RenderDeckOptions {
  /** The task folder: image paths in the spec are relative to it and may not leave it. */
  baseDir: string;
  /** Where the .pptx goes (normally the task's artifacts folder). */
  outDir: string;
  /** Defaults to deck.pptx; never overwrites (deck-v2.pptx, ...). */
  fileName?: string;
  /** `<data>/themes`: user themes (*.json) besides the built-in ones. */
  themesDir?: string;
  /** How text is measured; defaults to the font files installed (width tables where missing). */
  measurer?: TextMeasurer;
}

export interface RenderDeckResult {
  path: string;
  /** Slides in the file, continuation slides included. */
  slideCount: number;
  report: QualityReport;
  /** What was drawn: the preview draws the same plan, the rendered check compares against it. */
  plan: DeckPlan;
  /** The spec as rendered: validated, defaults filled, every slide with its id. */
  spec: DeckSpec;
}

function resolveTheme(name: string, themesDir: string | undefined): { theme: Theme; known: Theme[] } {
  const user = themesDir ? loadUserThemes(themesDir).themes : [];
  const theme = findTheme(name, user);
  if (!theme) {
    const names = [...BUILTIN_THEMES, ...user].map((t) => t.name).join(', ');
    throw new ValidationError(`theme: unknown theme "${name}"; the themes are: ${names}`);
  }
  return { theme, known: [...BUILTIN_THEMES, ...user] };
}

function outputFileName(fileName: string | undefined): string {
  const base = basename(fileName ?? 'deck.pptx').replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');
  if (!base || base.startsWith('.')) return 'deck.pptx';
  return base.toLowerCase().endsWith('.pptx') ? base : `${base}.pptx`;
}

export async function renderDeck(spec: DeckSpec, opts: RenderDeckOptions): Promise<RenderDeckResult> {
  // Callers may hand us JSON from an agent typed as DeckSpec: validate (and fill defaults) anyway.
  const checked = validateDeckSpec(spec);
  if (!checked.ok) throw new ValidationError(`Invalid deck spec: ${checked.errors.join('; ')}`);
  // Slides without an id get one here too (render_deck has written them into the spec file already),
  // so every plan slide and every part is named after its slide.
  const { ids } = assignSlideIds(checked.spec.slides.map((s) => s.id));
  const deck: DeckSpec = { ...checked.spec, slides: checked.spec.slides.map((s, i) => ({ ...s, id: ids[i] })) };
  // Icon names are checked here, against the installed Lucide set (the shared schema only checks their form).
  const unknownIcons = iconErrors(deck);
  if (unknownIcons.length > 0) throw new ValidationError(`Invalid deck spec: ${unknownIcons.join('; ')}`);
  const { theme, known } = resolveTheme(deck.theme, opts.themesDir);
  const size = slideSize(deck.aspect);
  const language = deckLanguage(deck);

  const cjkLang = /^(zh|ja|ko)\b/i.test(language) ? language : 'zh-CN';
  const measurer = opts.measurer ?? createTextMeasurer();
  const { plan, report } = planDeck(deck, { theme, measurer, size, language, baseDir: opts.baseDir });

  const pptx = new PptxGenJS();
  pptx.layout = size.layoutName;
  pptx.title = deck.title;
  if (deck.author) pptx.author = deck.author;
  pptx.company = 'Folio';
  pptx.theme = { headFontFace: theme.fonts.latinHeading, bodyFontFace: theme.fonts.latinBody };
  defineMasters(pptx, theme, size, deck.footer ?? theme.master.footer, cjkLang);
  drawPlan(pptx, plan, { theme, cjkLang, baseDir: opts.baseDir, emojiFace: measurer.emojiFace() });

  const written = (await pptx.write({ outputType: 'nodebuffer' })) as Uint8Array;
  const isCapable = (face: string): boolean => isCjkCapableFace(face, known);
  const keys = plan.slides.map((s, n) => slideKey(s.slide_id ?? `n${n + 1}`, s.part));
  const { bytes, cjkProblems: problems } = await postProcessDeck(written, { cjkHeading: theme.fonts.cjkHeading, cjkBody: theme.fonts.cjkBody, isCapable }, keys);
  if (problems.length > 0) {
    throw new FolioError('internal', `CJK text without a CJK font in ${problems[0]?.part ?? '?'}: "${problems[0]?.text ?? ''}"`);
  }
  const path = writeArtifactAtomic(opts.outDir, outputFileName(opts.fileName), bytes);
  return { path, slideCount: plan.slides.length, report, plan, spec: deck };
}

/** Parses a JSON spec; a syntax error names the line and column. */
export function parseDeckJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const pos = findJsonError(text);
    if (pos) throw new ValidationError(`${label} is not valid JSON at line ${pos.line}, column ${pos.column}: ${pos.message}`);
    throw new ValidationError(`${label} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Reads, validates and renders a deck spec file (used by the CLI and the agent's tool). */
export async function renderDeckFromFile(specPath: string, opts: RenderDeckOptions): Promise<RenderDeckResult> {
  let text: string;
  try {
    text = readFileSync(specPath, 'utf8');
  } catch {
    throw new NotFoundError(`Deck spec not found: ${basename(specPath)}`);
  }
  const raw = parseDeckJson(text.replace(/^\uFEFF/, ''), basename(specPath));
  const checked = validateDeckSpec(raw);
  if (!checked.ok) throw new ValidationError(`Invalid deck spec ${basename(specPath)}: ${checked.errors.join('; ')}`);
  return renderDeck(checked.spec, opts);
}
