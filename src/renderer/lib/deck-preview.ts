// Geometry, fonts and chart shapes for the HTML deck preview. Pure functions so the drawing code
// stays declarative and the arithmetic is tested without a DOM.
import { type ChartSpec, type QualityIssue, type QualityReport, splitRunsByScript } from '../../shared/specs/deck';
import { POINTS_PER_INCH } from '../../shared/specs/deck-geometry';
import { BUILTIN_THEMES, DEFAULT_THEME_NAME, findTheme, fontFaceFor, type Theme } from '../../shared/specs/themes';

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
export function fontFamilyFor(theme: Theme, role: 'heading' | 'body', cjk: boolean): string {
  const primary = fontFaceFor(theme, role, cjk);
  const other = fontFaceFor(theme, role, !cjk);
  const twin = LATIN_TWINS[primary];
  const faces = [primary, ...(twin ? [twin] : []), other].map((face) => `"${face.replace(/"/g, '')}"`);
  return [...faces, isSerifFace(primary) ? 'serif' : 'sans-serif'].join(', ');
}

export interface StyledRun {
  text: string;
  fontFamily: string;
}

/** Splits text by script and gives each run the theme's face for it, as the .pptx does. */
export function styledRuns(theme: Theme, role: 'heading' | 'body', text: string): StyledRun[] {
  return splitRunsByScript(text).map((run) => ({ text: run.text, fontFamily: fontFamilyFor(theme, role, run.cjk) }));
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

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
  series: number;
  category: number;
  value: number;
}

/** A "nice" upper bound for an axis: 1, 2, 2.5 or 5 times a power of ten, at or above max. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= max) return step * power;
  }
  return 10 * power;
}

function valueRange(chart: ChartSpec): { min: number; max: number } {
  const values = chart.series.flatMap((s) => s.values);
  const max = niceMax(Math.max(0, ...values));
  const lowest = Math.min(0, ...values);
  const min = lowest < 0 ? -niceMax(-lowest) : 0;
  return { min, max };
}

/**
 * Grouped bars inside a `width × height` plot: `column` grows upwards, `bar` grows rightwards (the
 * PowerPoint meanings). Negative values grow from the zero line the other way.
 */
export function barRects(chart: ChartSpec, width: number, height: number): Rect[] {
  const { min, max } = valueRange(chart);
  const span = max - min || 1;
  const horizontal = chart.type === 'bar';
  const categories = chart.categories.length;
  const seriesCount = chart.series.length;
  const band = (horizontal ? height : width) / categories;
  const gap = band * 0.2;
  const barSize = (band - gap) / seriesCount;
  const length = horizontal ? width : height;
  const zero = ((0 - min) / span) * length;
  const rects: Rect[] = [];
  chart.series.forEach((series, s) => {
    series.values.forEach((value, c) => {
      const extent = (Math.abs(value) / span) * length;
      const start = value >= 0 ? zero : zero - extent;
      const across = c * band + gap / 2 + s * barSize;
      rects.push(
        horizontal
          ? { x: start, y: across, width: extent, height: barSize, series: s, category: c, value }
          : { x: across, y: height - start - extent, width: barSize, height: extent, series: s, category: c, value },
      );
    });
  });
  return rects;
}

/** Points of each series across the plot (line, area and scatter charts). */
export function seriesPoints(chart: ChartSpec, width: number, height: number): { x: number; y: number }[][] {
  const { min, max } = valueRange(chart);
  const span = max - min || 1;
  const n = chart.categories.length;
  let xOf = (i: number): number => (n === 1 ? width / 2 : (i / (n - 1)) * width);
  if (chart.type === 'scatter') {
    const xs = chart.categories.map(Number);
    const lo = Math.min(...xs);
    const hi = Math.max(...xs);
    xOf = (i: number) => (hi === lo ? width / 2 : ((xs[i] - lo) / (hi - lo)) * width);
  }
  return chart.series.map((series) => series.values.map((value, i) => ({ x: xOf(i), y: height - ((value - min) / span) * height })));
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

/** Axis value at a fraction of the plot height, for tick labels. */
export function axisTicks(chart: ChartSpec, count = 4): number[] {
  const { min, max } = valueRange(chart);
  return Array.from({ length: count + 1 }, (_, i) => min + ((max - min) * i) / count);
}
