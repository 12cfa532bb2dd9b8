// What a person sees before using a template: Folio's sample slides (preview-samples.ts) planned on
// the template's theme, one per kind of slide, with the layout each goes on and the master's logo,
// which the UI draws over each sample (the plan holds only what Folio places).
import { posix } from 'node:path';
import { loadZip } from '../zip';
import { type UiLanguage } from '../../../../shared/contract';
import { deckLanguage, validateDeckSpec } from '../../../../shared/specs/deck';
import { type DeckPlan } from '../../../../shared/specs/deck-plan';
import { slideSize } from '../../../../shared/specs/deck-geometry';
import { type BackdropLayer, type TemplateRecord } from '../../../../shared/specs/templates';
import { type Theme } from '../../../../shared/specs/themes';
import { createTextMeasurer } from '../../typesetting/fonts';
import { planDeck } from '../plan';
import { type TextMeasurer } from '../../typesetting/text-measurer';
import { backdropLayers } from './backdrop-layers';
import { previewDeck } from './preview-samples';
import { templateLayoutFor } from './slide-layouts';
import { loadTemplate } from './store';

export interface TemplatePreview {
  plan: DeckPlan;
  theme: Theme;
  logo: { data_url: string; x: number; y: number; w: number; h: number } | null;
  /** For each planned slide, the template layout's name. */
  layouts: string[];
  /** For each planned slide, what its layout paints behind it, back to front (the plan holds only what Folio places). */
  backdrops: BackdropLayer[][];
}

const IMAGE_MIME: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml' };

async function logoOf(record: TemplateRecord, bytes: Buffer): Promise<TemplatePreview['logo']> {
  if (!record.logo) return null;
  const mime = IMAGE_MIME[posix.extname(record.logo.part).toLowerCase()];
  // EMF/WMF logos cannot be drawn by a browser; the preview goes without.
  if (!mime) return null;
  const data = await (await loadZip(bytes)).file(record.logo.part)?.async('base64');
  if (!data) return null;
  const { part: _part, ...box } = record.logo;
  return { data_url: `data:${mime};base64,${data}`, ...box };
}

export async function templatePreview(templatesDir: string, id: string, language: UiLanguage = 'en', measurer: TextMeasurer = createTextMeasurer()): Promise<TemplatePreview> {
  const { record, bytes } = loadTemplate(templatesDir, id);
  const checked = validateDeckSpec(previewDeck(language));
  if (!checked.ok) throw new Error(`the preview samples are not a valid deck: ${checked.errors.join('; ')}`);
  const spec = { ...checked.spec, theme: record.id, aspect: record.aspect };
  const { plan } = planDeck(spec, { theme: record.theme, measurer, size: slideSize(record.aspect), language: deckLanguage(spec), baseDir: templatesDir });
  const layoutName = (part: string): string => record.layouts.find((l) => l.part === part)?.name ?? part;
  const parts = plan.slides.map((s) => templateLayoutFor(record.mapping, spec.slides[s.source_index]?.layout, s.master));
  const painted = await backdropLayers(await loadZip(bytes), record, parts);
  return { plan, theme: record.theme, logo: await logoOf(record, bytes), layouts: parts.map(layoutName), backdrops: parts.map((p) => painted.get(p) ?? []) };
}
