// Geometry, fonts and chart shapes for the HTML deck preview. Pure functions so the drawing code
// stays declarative and the arithmetic is tested without a DOM.
import { type QualityIssue, type QualityReport, splitRunsByScript } from '../../shared/specs/deck';
import { POINTS_PER_INCH } from '../../shared/specs/deck-geometry';
import { currentLanguage } from '../i18n';
import { plainT } from '../i18n/plain';
import { BUILTIN_THEMES, DEFAULT_THEME_NAME, type FaceRole, findTheme, fontFaceFor, type Theme } from '../../shared/specs/themes';

/** Slides are drawn in points (the plan is in inches), and CSS scales the result. */
export function inches(n: number): number {
  return n * POINTS_PER_INCH;
}

/** A user theme the preview doesn't know is drawn with the default one, and says so. */
export function previewTheme(name: string): { theme: Theme; known: boolean } {
  const found = findTheme(name);
  if (found) return { theme: found, known: true };
  const fallback = findTheme(DEFAULT_THEME_NAME) ?? BUILTIN_THEMES[0];
  return { theme: fallback, known: false };
}

/**
 * A theme's name in the UI language: a built-in theme's from the strings (its label is English), a
 * template's as its author named it.
 */
export function builtinThemeLabel(theme: Pick<Theme, 'name' | 'label'>, t: (key: string) => string): string {
  const builtin = BUILTIN_THEMES.find((b) => b.name === theme.name && b.label === theme.label);
  return builtin ? t(`preview.themeNames.${builtin.name}`) : theme.label;
}

export function color(hex: string): string {
  return `#${hex}`;
}

/** Metric-compatible free twins, so the preview looks like LibreOffice on a machine without the Microsoft faces. */
const LATIN_TWINS: Record<string, string> = {
  Arial: 'Liberation Sans',
  'Times New Roman': 'Liberation Serif',
  'Courier New': 'Liberation Mono',
};

function isSerifFace(face: string): boolean {
  return /serif|times|song|mincho|宋/i.test(face) && !/sans/i.test(face);
}

/** A CSS font-family for one run: the theme's face for the script first, then twins and fallbacks. */
export function fontFamilyFor(theme: Theme, role: FaceRole, cjk: boolean): string {
  const primary = fontFaceFor(theme, role, cjk);
  const other = fontFaceFor(theme, role, !cjk);
  const twin = LATIN_TWINS[primary];
  const faces = [primary, ...(twin ? [twin] : []), other].map((face) => `"${face.replace(/"/g, '')}"`);
  return [...faces, role === 'code' ? 'monospace' : isSerifFace(primary) ? 'serif' : 'sans-serif'].join(', ');
}

export interface StyledRun {
  text: string;
  fontFamily: string;
}

/** Splits text by script and gives each run the theme's face for it, as the .pptx does. */
export function styledRuns(theme: Theme, role: FaceRole, text: string): StyledRun[] {
  return splitRunsByScript(text).map((run) => ({ text: run.text, fontFamily: fontFamilyFor(theme, role, run.cjk) }));
}

/** A slide's findings in its badge's tooltip: the engine's own sentences in English, each kind and its explanation in Chinese (as the CLI says them). */
export function slideIssuesTooltip(issues: QualityIssue[]): string {
  if (currentLanguage() === 'en') return issues.map((i) => i.message).join('\n');
  return issues
    .map((issue) => {
      const help = plainT(`report.deckIssueHelp.${issue.kind}`, { defaultValue: '' }) || plainT('report.unexplained');
      return `${plainT(`report.deckIssueKind.${issue.kind}`, { defaultValue: issue.kind })}：${help}`;
    })
    .join('\n');
}

/** The report's issues keyed by spec slide index (0-based). */
export function issuesBySlide(report: QualityReport | null): Map<number, QualityIssue[]> {
  const map = new Map<number, QualityIssue[]>();
  for (const slide of report?.slides ?? []) {
    if (slide.issues.length > 0) map.set(slide.index, slide.issues);
  }
  return map;
}

// ---------- charts ----------

/** A "nice" upper bound for an axis: 1, 2, 2.5 or 5 times a power of ten, at or above max. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= max) return step * power;
  }
  return 10 * power;
}

export interface PieSlice {
  path: string;
  value: number;
  index: number;
  fraction: number;
}

function polar(cx: number, cy: number, r: number, angle: number): [number, number] {
  // Angles start at twelve o'clock and run clockwise, as PowerPoint draws pies.
  return [cx + r * Math.sin(angle), cy - r * Math.cos(angle)];
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** SVG paths of a pie (inner = 0) or doughnut. Negative and zero values take no slice. */
export function pieSlices(values: readonly number[], cx: number, cy: number, r: number, inner = 0): PieSlice[] {
  const total = values.reduce((sum, v) => sum + Math.max(0, v), 0);
  if (total <= 0) return [];
  const slices: PieSlice[] = [];
  let angle = 0;
  values.forEach((value, index) => {
    if (value <= 0) return;
    const fraction = value / total;
    // A full circle can't be one arc: stop a hair short so the path still closes.
    const sweep = Math.min(fraction * 2 * Math.PI, 2 * Math.PI - 1e-4);
    const [x1, y1] = polar(cx, cy, r, angle);
    const [x2, y2] = polar(cx, cy, r, angle + sweep);
    const large = sweep > Math.PI ? 1 : 0;
    let path: string;
    if (inner > 0) {
      const [x3, y3] = polar(cx, cy, inner, angle + sweep);
      const [x4, y4] = polar(cx, cy, inner, angle);
      path = `M${round(x1)} ${round(y1)}A${r} ${r} 0 ${large} 1 ${round(x2)} ${round(y2)}L${round(x3)} ${round(y3)}A${inner} ${inner} 0 ${large} 0 ${round(x4)} ${round(y4)}Z`;
    } else {
      path = `M${cx} ${cy}L${round(x1)} ${round(y1)}A${r} ${r} 0 ${large} 1 ${round(x2)} ${round(y2)}Z`;
    }
    slices.push({ path, value, index, fraction });
    angle += fraction * 2 * Math.PI;
  });
  return slices;
}
