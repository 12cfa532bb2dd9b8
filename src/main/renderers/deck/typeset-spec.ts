// The spec's text as the slides set it: one gap between Chinese and Latin, LibreOffice's own, so
// the plan measures, the .pptx holds and the rendered check reads the same characters.
import { type DeckSpec, withoutTypedCjkGaps } from '../../../shared/specs/deck';
import { type Theme } from '../../../shared/specs/themes';

/** Fields holding names, paths and settings, and speaker notes (read as typed, not drawn on a slide). */
const NOT_SET_TEXT: ReadonlySet<string> = new Set(['id', 'layout', 'theme', 'aspect', 'language', 'image', 'icon', 'image_side', 'type', 'notes']);

function typeset(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'string') return key !== undefined && NOT_SET_TEXT.has(key) ? value : withoutTypedCjkGaps(value);
  if (Array.isArray(value)) return value.map((v: unknown) => typeset(v, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeset(v, k)]));
  return value;
}

/**
 * Every string of the spec that is drawn, as `withoutTypedCjkGaps` sets it. Names that refer to
 * each other (a chart's highlight and its categories, a comparison's recommended option) change
 * alike, so they still match.
 */
export function typesetSpec(spec: DeckSpec): DeckSpec {
  return typeset(spec, undefined) as DeckSpec;
}

/** The footer content slides print: the deck's, else the theme's, typeset as the slides are. */
export function footerText(spec: Pick<DeckSpec, 'footer'>, theme: Theme): string {
  return withoutTypedCjkGaps(spec.footer ?? theme.master.footer);
}
