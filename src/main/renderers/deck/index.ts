// The deck engine: a validated deck spec → a .pptx written atomically into the task's artifacts,
// plus a quality report of everything fitting had to do and everything a person should check.
import type PptxGenJS from 'pptxgenjs';
import { basename } from 'node:path';
import { FolioError, NotFoundError, ValidationError } from '../../../shared/errors';
import { DeckSpecError } from '../../../shared/specs/spec-issues';
import { deckLanguage, type DeckSpec, type QualityReport, validateDeckSpec } from '../../../shared/specs/deck';
import { type DeckPlan } from '../../../shared/specs/deck-plan';
import { slideSize } from '../../../shared/specs/deck-geometry';
import { assignSlideIds, slideKey } from '../../../shared/specs/slide-ids';
import { BUILTIN_THEMES, findTheme, isCjkCapableFace, type Theme } from '../../../shared/specs/themes';
import { type TemplateRecord } from '../../../shared/specs/templates';
import { writeArtifactAtomic } from '../../artifacts/write-artifact';
import { iconErrors } from './icons';
import { findJsonError } from '../json-position';
import { drawPlan } from './draw/plan';
import { createTextMeasurer } from '../typesetting/fonts';
import { defineMasters } from './masters';
import { planDeck } from './plan';
import { postProcessDeck } from './post-process';
import { type TextMeasurer } from '../typesetting/text-measurer';
import { loadUserThemes } from './user-themes';
import { graftTemplate } from './templates/graft';
import { listTemplates, loadTemplate } from './templates/store';
import { templateLayoutFor } from './templates/slide-layouts';
import { footerText } from './typeset-spec';
import { type FixedText } from './verify';
import { readRegularFileSync, SpecialFileError } from '../../workspace/task-paths';

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
  /** `<data>/templates`: imported PowerPoint templates, named by id like themes. */
  templatesDir?: string;
  /** How text is measured; defaults to the font files installed (width tables where missing). */
  measurer?: TextMeasurer;
  /** A theme or template id used instead of the spec's (`folio render --template`). */
  theme?: string;
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
  /** Deck-wide notes for the person (what a template could not give: its aspect won over the spec's...). */
  notes: string[];
  /** The theme it was drawn with, so the preview draws with the same one (user themes and templates included). */
  theme: Theme;
  /** Text the template's master and layouts draw themselves (boxes in fractions of the slide); empty without a template. */
  fixedText: FixedText[];
}

interface ResolvedTheme {
  theme: Theme;
  known: Theme[];
  /** When the theme is an imported template: its record (the master is taken from its file). */
  template?: TemplateRecord;
}

/** The themes and templates a spec may name, for messages and tool descriptions. */
export function availableThemeNames(opts: Pick<RenderDeckOptions, 'themesDir' | 'templatesDir'>): { themes: string[]; templates: string[] } {
  const user = opts.themesDir ? loadUserThemes(opts.themesDir).themes : [];
  const templates = opts.templatesDir ? listTemplates(opts.templatesDir).templates : [];
  return { themes: [...BUILTIN_THEMES, ...user].map((t) => t.name), templates: templates.map((t) => t.id) };
}

function resolveTheme(name: string, opts: Pick<RenderDeckOptions, 'themesDir' | 'templatesDir'>): ResolvedTheme {
  const user = opts.themesDir ? loadUserThemes(opts.themesDir).themes : [];
  const templates = opts.templatesDir ? listTemplates(opts.templatesDir).templates : [];
  const known = [...BUILTIN_THEMES, ...user, ...templates.map((t) => t.theme)];
  const theme = findTheme(name, user);
  if (theme) return { theme, known };
  const template = templates.find((t) => t.id === name);
  if (template) return { theme: template.theme, known, template };
  const templateNote = templates.length > 0 ? `; imported templates: ${templates.map((t) => t.id).join(', ')}` : '';
  throw new ValidationError(`theme: unknown theme "${name}"; the themes are: ${[...BUILTIN_THEMES, ...user].map((t) => t.name).join(', ')}${templateNote}`);
}

function outputFileName(fileName: string | undefined): string {
  const base = basename(fileName ?? 'deck.pptx').replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');
  if (!base || base.startsWith('.')) return 'deck.pptx';
  return base.toLowerCase().endsWith('.pptx') ? base : `${base}.pptx`;
}

export async function renderDeck(spec: DeckSpec, opts: RenderDeckOptions): Promise<RenderDeckResult> {
  // Callers may hand us JSON from an agent typed as DeckSpec: validate (and fill defaults) anyway.
  const checked = validateDeckSpec(spec);
  if (!checked.ok) throw new DeckSpecError(`Invalid deck spec: ${checked.errors.join('; ')}`, null, checked.issues);
  // Slides without an id get one here too (render_deck has written them into the spec file already),
  // so every plan slide and every part is named after its slide.
  const { ids } = assignSlideIds(checked.spec.slides.map((s) => s.id));
  const deck: DeckSpec = { ...checked.spec, slides: checked.spec.slides.map((s, i) => ({ ...s, id: ids[i] })) };
  // Icon names are checked here, against the installed Lucide set (the shared schema only checks their form).
  const unknownIcons = iconErrors(deck);
  if (unknownIcons.length > 0) throw new ValidationError(`Invalid deck spec: ${unknownIcons.join('; ')}`);
  const { theme, known, template } = resolveTheme(deck.theme, opts);
  const notes: string[] = [];
  // A template's master is drawn for one slide shape: the deck takes it.
  const aspect = theme.aspect ?? deck.aspect;
  if (aspect !== deck.aspect) notes.push(`The template "${theme.name}" is ${aspect}: the deck is ${aspect}, not ${deck.aspect}.`);
  const size = slideSize(aspect);
  const deckFooter = deck.footer ?? theme.master.footer;
  if (deckFooter && theme.template?.ownFooter) notes.push(`The template "${theme.name}" prints its own footer: the deck's footer "${deckFooter}" is not drawn over it.`);
  const language = deckLanguage(deck);

  const cjkLang = /^(zh|ja|ko)\b/i.test(language) ? language : 'zh-CN';
  const measurer = opts.measurer ?? createTextMeasurer();
  const { plan, report } = planDeck(deck, { theme, measurer, size, language, baseDir: opts.baseDir });

  // pptxgenjs loads at the first render, not with the app (start-up imports this module for themes).
  const { default: PptxGen } = await import('pptxgenjs');
  const pptx: PptxGenJS = new PptxGen();
  pptx.layout = size.layoutName;
  pptx.title = deck.title;
  if (deck.author) pptx.author = deck.author;
  pptx.company = 'Folio';
  pptx.theme = { headFontFace: theme.fonts.latinHeading, bodyFontFace: theme.fonts.latinBody };
  defineMasters(pptx, theme, size, footerText(deck, theme), cjkLang);
  drawPlan(pptx, plan, { theme, cjkLang, baseDir: opts.baseDir, emojiFace: measurer.emojiFace(), measurer, onTemplate: template !== undefined });

  const written = (await pptx.write({ outputType: 'nodebuffer' })) as Uint8Array;
  const isCapable = (face: string): boolean => isCjkCapableFace(face, known);
  const keys = plan.slides.map((s, n) => slideKey(s.slide_id ?? `n${n + 1}`, s.part));
  const { bytes, cjkProblems: problems } = await postProcessDeck(written, { cjkHeading: theme.fonts.cjkHeading, cjkBody: theme.fonts.cjkBody, isCapable, cjkLang }, keys);
  if (problems.length > 0) {
    throw new FolioError('internal', `CJK text without a CJK font in ${problems[0]?.part ?? '?'}: "${problems[0]?.text ?? ''}"`);
  }
  let final: Uint8Array = bytes;
  if (template && opts.templatesDir) {
    const original = loadTemplate(opts.templatesDir, template.id).bytes;
    const slideLayouts = plan.slides.map((s) => templateLayoutFor(template.mapping, deck.slides[s.source_index]?.layout, s.master));
    final = await graftTemplate(bytes, original, template, { slideLayouts, cjkHeading: theme.fonts.cjkHeading, cjkBody: theme.fonts.cjkBody });
  }
  const path = writeArtifactAtomic(opts.outDir, outputFileName(opts.fileName), final);
  return { path, slideCount: plan.slides.length, report, plan, spec: deck, notes, theme, fixedText: template?.fixed_text ?? [] };
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
    text = readRegularFileSync(specPath, basename(specPath)).toString('utf8');
  } catch (err) {
    if (err instanceof SpecialFileError) throw err;
    throw new NotFoundError(`Deck spec not found: ${basename(specPath)}`);
  }
  const raw = parseDeckJson(text.replace(/^\uFEFF/, ''), basename(specPath));
  const checked = validateDeckSpec(raw);
  if (!checked.ok) throw new DeckSpecError(`Invalid deck spec ${basename(specPath)}: ${checked.errors.join('; ')}`, basename(specPath), checked.issues);
  return renderDeck(opts.theme ? { ...checked.spec, theme: opts.theme } : checked.spec, opts);
}
