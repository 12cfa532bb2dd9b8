// Plans a chart: a ChartSpec + theme + box → a ChartElement with every design decision made (series
// colours, the highlighted category, data labels or an axis, number format, legend), so the .pptx
// drawer and the preview only draw. Pure: the same inputs give the same element.
import { valueAxisFor } from '../../../../shared/specs/chart-axis';
import { chartFace } from '../../../../shared/specs/chart-style';
import { secondarySizePt } from '../../../../shared/specs/deck-geometry';
import { type ChartSpec, containsCjk, latinBracketsHalfWidth, withoutTypedCjkGaps } from '../../../../shared/specs/deck';
import { type ChartElement, type PlanBox } from '../../../../shared/specs/deck-plan';
import { contrastRatio, type Theme } from '../../../../shared/specs/themes';
import { textWidthIn } from '../../typesetting/width-table';
import { shrunkMessage, type SlideReport } from '../report';
import { type MeasureStyle, type TextMeasurer } from '../../typesetting/text-measurer';
import { invisibleSeriesMessages } from './chart-visibility';
import { type TitleWrap, TITLE_NAMES, wrappedTitleMessage, wrappedTitles } from './chart-titles';

/** Above this many bars (categories × series) labels crowd: a value axis reads better. */
const MAX_LABELLED_BARS = 16;
/** Line charts get point labels only when short and single. */
const MAX_LABELLED_POINTS = 8;
/** How far non-highlighted points fade toward the background. */
const RECEDE = 0.55;
/**
 * Bars below zero, in the red accountants use: a deep one on light slides, a light one on dark
 * slides, whichever stands further from the background.
 */
const NEGATIVE_ON_LIGHT = 'C0392B';
const NEGATIVE_ON_DARK = 'F1948A';

export function negativeColour(background: string): string {
  return contrastRatio(NEGATIVE_ON_LIGHT, background) >= contrastRatio(NEGATIVE_ON_DARK, background) ? NEGATIVE_ON_LIGHT : NEGATIVE_ON_DARK;
}

export function isRoundChart(type: ChartSpec['type']): boolean {
  return type === 'pie' || type === 'doughnut';
}

/** `a` mixed toward `b` by t (0 = a, 1 = b), both 6-digit hex. */
export function mixHex(a: string, b: string, t: number): string {
  const ch = (hex: string, i: number): number => parseInt(hex.slice(i, i + 2), 16);
  return [0, 2, 4]
    .map((i) => Math.round(ch(a, i) + (ch(b, i) - ch(a, i)) * t))
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

/** Decimals the data is written with (at most 2), so labels show what the spec said and no more. */
function decimalsOf(values: readonly number[]): number {
  let d = 0;
  for (const v of values) {
    const s = String(v);
    if (s.includes('e')) continue;
    const dot = s.indexOf('.');
    if (dot >= 0) d = Math.max(d, s.length - dot - 1);
  }
  return Math.min(2, d);
}

/** An Excel number format: thousands separators, the data's decimals, the unit as a literal suffix. */
export function numberFormatFor(values: readonly number[], unit: string | undefined, withUnit: boolean): string {
  const d = decimalsOf(values);
  const base = d > 0 ? `#,##0.${'0'.repeat(d)}` : '#,##0';
  const u = (unit ?? '').replace(/["\\]/g, '').trim();
  if (!u || !withUnit) return base;
  // A currency sign leads, as the locale writes it: "$3.2M", "¥1,200", "€5k" (not "3.2 $M").
  const currency = /^([$€£¥￥])(.*)$/u.exec(u);
  if (currency) return `"${currency[1] ?? ''}"${base}${currency[2] ? `"${currency[2]}"` : ''}`;
  // "%" and currency-like symbols sit tight; words get a space ("12 ms"); a Chinese unit is written
  // against the number ("3.2万元"), and LibreOffice sets its own quarter em between them.
  return /^[%‰°]$/.test(u) || containsCjk(u.charAt(0)) ? `${base}"${u}"` : `${base}" ${u}"`;
}

/**
 * Whether points carry their value: few bars, short single lines and every pie (as percentages).
 * Otherwise the value axis does the job.
 */
export function wantsDataLabels(spec: ChartSpec): boolean {
  const points = spec.categories.length * spec.series.length;
  switch (spec.type) {
    case 'pie':
    case 'doughnut':
      return true;
    case 'bar':
    case 'column':
      return points <= MAX_LABELLED_BARS && spec.series.length <= 3;
    case 'line':
      return spec.series.length === 1 && spec.categories.length <= MAX_LABELLED_POINTS;
    case 'area':
    case 'scatter':
      return false;
  }
}

/** Colours: one per series from the theme; a highlight or pie slices get one per point. */
function colours(spec: ChartSpec, theme: Theme): { color: string; pointColors?: string[] }[] {
  const p = theme.palette;
  const palette = p.chart;
  const hi = spec.highlight === undefined ? -1 : spec.categories.indexOf(spec.highlight);
  if (isRoundChart(spec.type)) {
    // Slices: theme colours in order, never the same colour on two neighbours (first and last touch).
    const n = spec.categories.length;
    const base = hi >= 0 ? palette.filter((c) => c.toUpperCase() !== p.accent.toUpperCase()) : palette;
    const slices = spec.categories.map((_, i) => {
      const c = base[i % base.length] ?? palette[0] ?? p.accent;
      return hi >= 0 ? mixHex(c, p.background, RECEDE) : c;
    });
    if (n > 1 && n % base.length === 1) slices[n - 1] = hi >= 0 ? mixHex(base[1] ?? p.muted, p.background, RECEDE) : (base[1] ?? p.muted);
    if (hi >= 0) slices[hi] = p.accent;
    return [{ color: slices[0] ?? p.accent, pointColors: slices }];
  }
  const bars = spec.type === 'bar' || spec.type === 'column';
  return spec.series.map((s, i) => {
    const color = palette[i % palette.length] ?? p.accent;
    // A single series' bars below zero are coloured as losses (one colour per point is written for a
    // single series only: several series keep one colour each, so their legend stays true).
    const negative = bars && spec.series.length === 1 && s.values.some((v) => v < 0) ? negativeColour(p.background) : undefined;
    if (hi < 0 || spec.series.length !== 1) {
      return negative ? { color, pointColors: s.values.map((v) => (v < 0 ? negative : color)) } : { color };
    }
    // The bar that matters in the accent; the others one receding colour (not a rainbow).
    const others = color.toUpperCase() === p.accent.toUpperCase() ? mixHex(p.muted, p.background, 0.35) : mixHex(color, p.background, RECEDE);
    const below = negative ? mixHex(negative, p.background, RECEDE) : others;
    return { color: others, pointColors: s.values.map((v, k) => (k === hi ? p.accent : v < 0 ? below : others)) };
  });
}

/** A chart's text as drawn: what the spec says, with the brackets and spaces the planner writes. */
interface ChartTexts {
  title?: string;
  xTitle?: string;
  yTitle?: string;
  categories: string[];
  seriesNames: string[];
}

/**
 * How a chart's text is measured: in the one face the whole chart is drawn in (chartFace), with the gap
 * LibreOffice puts at every change between Chinese and Latin text in a chart, beside a full-width mark as well
 * ("P95 延迟（ms）", "检索：BM25"): nothing in a chart's runs stops it there (../../typesetting/autospace.ts).
 */
export function chartTextStyle(theme: Theme, texts: ChartTexts, sizePt: number): MeasureStyle {
  const face = chartFace(theme, [texts.title, texts.xTitle, texts.yTitle, ...texts.categories, ...texts.seriesNames]);
  return { fonts: { latin: face, cjk: face }, sizePt, setting: 'chart' };
}

/** The width of one chart text in inches: with the measurer as LibreOffice draws it, else by the width tables. */
type ChartWidth = (text: string) => number;

function chartWidth(measurer: TextMeasurer | undefined, theme: Theme, texts: ChartTexts, sizePt: number): ChartWidth {
  if (!measurer) return (text) => textWidthIn(text, sizePt);
  const style = chartTextStyle(theme, texts, sizePt);
  return (text) => measurer.widthPt(text, style) / 72;
}

/** A title broken as LibreOffice breaks it: by the measurer in the chart's face and gap, else character by character by the width tables. */
function chartTitleWrap(measurer: TextMeasurer | undefined, theme: Theme, texts: ChartTexts): TitleWrap {
  if (measurer) return (text, sizePt, roomPt) => measurer.wrap(text, chartTextStyle(theme, texts, sizePt), roomPt);
  return (text, sizePt, roomPt) => {
    const lines: string[] = [];
    let line = '';
    for (const ch of text) {
      if (line && textWidthIn(line + ch, sizePt) * 72 > roomPt) {
        lines.push(line);
        line = '';
      }
      line += ch;
    }
    return [...lines, line];
  };
}

/** Chart text smaller than the type scale's, only when even this does not fit (many categories, a small box). */
const CHART_FLOOR_PT = 12;
/**
 * How far a long title may take the chart's text down so that it keeps one line: one step of the deck's type scale
 * (the body's 4 pt down to its secondary size). Below that the labels would be harder to read than the wrapped title.
 */
const TITLE_SHRINK_PT = 4;

/**
 * Whether chart text of `sizePt` fits the box: a column, line or area chart's category labels side
 * by side under the plot (about 85% of the box's width), a horizontal bar's labels in 30% of the
 * width and its rows one above another, the legend's entries in one row below (or a pie's in a
 * column on the right).
 */
function chartTextFits(spec: ChartSpec, texts: ChartTexts, box: PlanBox, sizePt: number, width: ChartWidth): boolean {
  const lineIn = (sizePt * 1.5) / 72;
  const n = texts.categories.length;
  const widest = Math.max(...texts.categories.map(width));
  if (isRoundChart(spec.type)) {
    const legendW = widest + (sizePt * 2.5) / 72;
    return legendW <= box.w * 0.3 && n * lineIn <= box.h * 0.85;
  }
  if (spec.type === 'bar') {
    if (widest > box.w * 0.3 || n * spec.series.length * lineIn > box.h * 0.75) return false;
  } else if (spec.type !== 'scatter' && (widest + (sizePt * 0.5) / 72) * n > box.w * 0.85) {
    return false;
  }
  if (spec.series.length < 2) return true;
  const legendW = texts.seriesNames.reduce((sum, name) => sum + width(name) + (sizePt * 2) / 72, 0);
  return legendW <= box.w * 0.9;
}

/** The chart's text size, and the size its labels alone would allow (larger when a long title took it down). */
interface ChartSize {
  sizePt: number;
  labelsSizePt: number;
}

/**
 * Axis labels, legend and data labels: the body's secondary size (secondarySizePt, as sub-bullets),
 * a point smaller at a time while they do not fit, never below CHART_FLOOR_PT. Then, while a title would wrap, a
 * point smaller again, at most TITLE_SHRINK_PT below the preferred size: the whole chart's text together, so the
 * slide keeps its few type sizes.
 */
function chartFontSize(spec: ChartSpec, theme: Theme, texts: ChartTexts, box: PlanBox, measurer?: TextMeasurer): ChartSize {
  const preferred = secondarySizePt(theme.sizes.body);
  let labelsSizePt = Math.min(preferred, CHART_FLOOR_PT);
  for (let size = preferred; size > CHART_FLOOR_PT; size--) {
    if (chartTextFits(spec, texts, box, size, chartWidth(measurer, theme, texts, size))) {
      labelsSizePt = size;
      break;
    }
  }
  const wrap = chartTitleWrap(measurer, theme, texts);
  const floor = Math.max(CHART_FLOOR_PT, preferred - TITLE_SHRINK_PT);
  for (let size = labelsSizePt; size >= floor; size--) {
    if (wrappedTitles(texts, box, size, wrap).every((t) => t.lines.length === 1)) return { sizePt: size, labelsSizePt };
  }
  return { sizePt: labelsSizePt, labelsSizePt };
}

/**
 * The share of the value axis a label outside the largest bar or point needs: a line of text above
 * a column or point, the widest label beside a horizontal bar. The plot is taken as about 60% of the
 * chart's height (title, category labels and legend share the rest) and 70% of its width.
 */
function labelRoom(spec: ChartSpec, box: PlanBox, sizePt: number, width: ChartWidth): number {
  if (spec.type === 'bar') {
    const widest = Math.max(...spec.series.flatMap((s) => s.values.map((v) => width(`${v.toLocaleString('en-US')} ${spec.unit ?? ''}`))));
    return Math.min(0.5, (widest + 0.1) / (box.w * 0.7));
  }
  return Math.min(0.5, ((sizePt * 1.6) / 72) / (box.h * 0.6));
}

/** A planned chart and what the report should say of its text: titles that took the text down, or that still wrap. */
interface PlannedChart {
  element: ChartElement;
  notes: { kind: 'shrunk' | 'chart_title'; message: string }[];
}

function planChartWithNotes(spec: ChartSpec, theme: Theme, box: PlanBox, measurer?: TextMeasurer): PlannedChart {
  const p = theme.palette;
  const round = isRoundChart(spec.type);
  const dataLabels = wantsDataLabels(spec);
  // Bars with labels drop their value axis (the labels are the values), so the unit goes on the labels.
  const unitOnLabels = dataLabels && !round && spec.unit !== undefined;
  const values = spec.series.flatMap((s) => s.values);
  const numberFormat = round ? '0%' : numberFormatFor(values, spec.unit, unitOnLabels || spec.unit === '%');
  const unitInTitle = spec.unit !== undefined && !unitOnLabels && spec.unit !== '%';
  // Labelled bars drop their value axis, and its title goes with it: a title beside no axis reads as
  // a stray word. What it named becomes the chart's title when the chart has none.
  const axisDropped = dataLabels && (spec.type === 'bar' || spec.type === 'column');
  const yTitle = round || axisDropped ? undefined : unitInTitle ? (spec.y_title ? `${spec.y_title} (${spec.unit})` : spec.unit) : spec.y_title;
  const title = spec.title ?? (axisDropped ? spec.y_title : undefined);
  const texts: ChartTexts = {
    ...(title ? { title: latinBracketsHalfWidth(title) } : {}),
    ...(!round && spec.x_title ? { xTitle: latinBracketsHalfWidth(spec.x_title) } : {}),
    // "P95 延迟 (ms)": the space typed before the unit would sit beside LibreOffice's own CJK–Latin gap.
    ...(yTitle ? { yTitle: latinBracketsHalfWidth(withoutTypedCjkGaps(yTitle)) } : {}),
    categories: spec.categories.map(latinBracketsHalfWidth),
    seriesNames: spec.series.map((s) => latinBracketsHalfWidth(s.name)),
  };
  const legend: ChartElement['legend'] = round ? 'right' : spec.series.length > 1 ? 'bottom' : 'none';
  const cols = colours(spec, theme);
  const { sizePt: fontSizePt, labelsSizePt } = chartFontSize(spec, theme, texts, box, measurer);
  const wrap = chartTitleWrap(measurer, theme, texts);
  const notes: PlannedChart['notes'] = wrappedTitles(texts, box, fontSizePt, wrap)
    .filter((t) => t.lines.length > 1)
    .map((t) => ({ kind: 'chart_title', message: wrappedTitleMessage(t) }));
  if (fontSizePt < labelsSizePt) {
    const kept = wrappedTitles(texts, box, labelsSizePt, wrap).filter((t) => t.lines.length > 1).map((t) => TITLE_NAMES[t.key].en);
    notes.push({ kind: 'shrunk', message: shrunkMessage(`chart text (so its ${kept.join(' and ')} keeps one line)`, labelsSizePt, fontSizePt) });
  }
  const element: ChartElement = {
    kind: 'chart',
    id: 'chart',
    box,
    type: spec.type,
    ...(texts.title ? { title: texts.title } : {}),
    categories: texts.categories,
    series: spec.series.map((s, i) => ({ name: texts.seriesNames[i] ?? s.name, values: [...s.values], ...(cols[i] ?? { color: p.accent }) })),
    legend,
    dataLabels,
    numberFormat,
    ...(round ? {} : { valueAxis: valueAxisFor(values, numberFormat, dataLabels ? labelRoom(spec, box, fontSizePt, chartWidth(measurer, theme, texts, fontSizePt)) : 0) }),
    ...(texts.xTitle ? { xTitle: texts.xTitle } : {}),
    ...(texts.yTitle ? { yTitle: texts.yTitle } : {}),
    fontSizePt,
    textColor: p.text,
    mutedColor: p.muted,
    gridColor: p.tableBorder,
  };
  return { element, notes };
}

export function planChartElement(spec: ChartSpec, theme: Theme, box: PlanBox, measurer?: TextMeasurer): ChartElement {
  return planChartWithNotes(spec, theme, box, measurer).element;
}

/**
 * The kit's call form: `planChart(ctx, chart, box)` with the deck's theme and measurer; a series or
 * slice drawn but invisible (its legend entry names nothing seen) goes into the slide's report.
 */
export function planChart(ctx: { theme: Theme; measurer?: TextMeasurer; report?: Pick<SlideReport, 'add'> }, spec: ChartSpec, box: PlanBox): ChartElement {
  const { element: el, notes } = planChartWithNotes(spec, ctx.theme, box, ctx.measurer);
  for (const note of notes) ctx.report?.add(note.kind, note.message);
  for (const message of invisibleSeriesMessages(el, ctx.theme.palette.background)) ctx.report?.add('hidden_series', message);
  return el;
}
