// Geometry of a planned chart element for the SVG preview: the same reading the .pptx chart gives
// (horizontal bars first category on top, one colour per series or per point as planned, values
// formatted with the plan's number format). Pure, so it is tested without a DOM.
import { axisTicks } from '../../shared/specs/chart-axis';
import type { ChartElement } from '../../shared/specs/deck-plan';
import { niceMax, pieSlices, type PieSlice } from './deck-preview';

export interface Plot {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface BarMark {
  x: number;
  y: number;
  width: number;
  height: number;
  color: string;
  value: number;
  series: number;
  category: number;
}

/** Formats a value the way the chart's Excel number format does ("#,##0.0\" ms\"", "0%"). */
export function formatChartValue(value: number, numberFormat: string): string {
  if (numberFormat === '0%') return `${Math.round(value * 100)}%`;
  const decimals = /0\.(0+)/.exec(numberFormat)?.[1]?.length ?? 0;
  const suffix = /"([^"]*)"/.exec(numberFormat)?.[1] ?? '';
  const grouped = numberFormat.includes('#,##');
  const text = value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: grouped });
  return text + suffix;
}

/** Value range from zero (or the lowest negative) to a nice maximum, and evenly spaced ticks. */
export function valueScale(el: ChartElement, tickCount = 4): { min: number; max: number; ticks: number[] } {
  // The plan's axis (what the .pptx draws); plans made before it get the old even split.
  if (el.valueAxis) return { min: el.valueAxis.min, max: el.valueAxis.max, ticks: axisTicks(el.valueAxis) };
  const values = el.series.flatMap((s) => s.values);
  const max = niceMax(Math.max(0, ...values));
  const lowest = Math.min(0, ...values);
  const min = lowest < 0 ? -niceMax(-lowest) : 0;
  return { min, max, ticks: Array.from({ length: tickCount + 1 }, (_, i) => min + ((max - min) * i) / tickCount) };
}

export function pointColor(el: ChartElement, series: number, point: number): string {
  const s = el.series[series];
  return s?.pointColors?.[point] ?? s?.color ?? '888888';
}

/** Grouped bars: `bar` grows rightwards with the first category at the top, `column` upwards. */
export function barMarks(el: ChartElement, plot: Plot): BarMark[] {
  const { min, max } = valueScale(el);
  const span = max - min || 1;
  const horizontal = el.type === 'bar';
  const n = Math.max(1, el.categories.length);
  const band = (horizontal ? plot.h : plot.w) / n;
  const gap = band * (el.series.length > 1 ? 0.45 : 0.33);
  const barSize = (band - gap) / Math.max(1, el.series.length);
  const length = horizontal ? plot.w : plot.h;
  const zero = ((0 - min) / span) * length;
  const marks: BarMark[] = [];
  el.series.forEach((series, s) => {
    series.values.forEach((value, c) => {
      const extent = (Math.abs(value) / span) * length;
      const start = value >= 0 ? zero : zero - extent;
      const across = c * band + gap / 2 + s * barSize;
      const color = pointColor(el, s, c);
      marks.push(
        horizontal
          ? { x: plot.x + start, y: plot.y + across, width: extent, height: barSize, color, value, series: s, category: c }
          : { x: plot.x + across, y: plot.y + plot.h - start - extent, width: barSize, height: extent, color, value, series: s, category: c },
      );
    });
  });
  return marks;
}

/** Points of each series across the plot (line, area, scatter). */
export function linePoints(el: ChartElement, plot: Plot): { x: number; y: number; value: number }[][] {
  const { min, max } = valueScale(el);
  const span = max - min || 1;
  const n = el.categories.length;
  let xOf = (i: number): number => plot.x + (n === 1 ? plot.w / 2 : (i / (n - 1)) * plot.w);
  if (el.type === 'scatter') {
    const xs = el.categories.map(Number);
    const lo = Math.min(...xs);
    const hi = Math.max(...xs);
    xOf = (i: number) => plot.x + (hi === lo ? plot.w / 2 : (((xs[i] ?? lo) - lo) / (hi - lo)) * plot.w);
  }
  return el.series.map((s) => s.values.map((value, i) => ({ x: xOf(i), y: plot.y + plot.h - ((value - min) / span) * plot.h, value })));
}

export function chartPieSlices(el: ChartElement, cx: number, cy: number, r: number): (PieSlice & { color: string })[] {
  const inner = el.type === 'doughnut' ? r * 0.58 : 0;
  return pieSlices(el.series[0]?.values ?? [], cx, cy, r, inner).map((slice) => ({ ...slice, color: pointColor(el, 0, slice.index) }));
}

/** Rough text width for layout bands (the preview has no font metrics; the .pptx does its own layout). */
export function approxWidth(text: string, sizePt: number): number {
  let em = 0;
  for (const ch of text) em += /[\u2E80-\uFFEF]/.test(ch) ? 1 : 0.56;
  return em * sizePt;
}

/** The plot area inside a chart of `w × h` points: room for title, legend, axis labels and titles. */
export function plotArea(el: ChartElement, w: number, h: number): Plot {
  const fs = el.fontSizePt;
  const top = (el.title ? fs * 2 : 0) + fs * (el.dataLabels && el.type === 'column' ? 1.6 : 0.6);
  let bottom = el.legend === 'bottom' ? fs * 2.2 : 0;
  let left = 0;
  let right = el.legend === 'right' ? Math.min(w * 0.3, Math.max(...el.categories.map((c) => approxWidth(c, fs))) + fs * 2.5) : fs;
  if (el.type === 'bar') {
    left = Math.min(w * 0.35, Math.max(...el.categories.map((c) => approxWidth(c, fs))) + fs);
    if (el.dataLabels) right += fs * 4;
    else bottom += fs * 1.8;
  } else if (el.type !== 'pie' && el.type !== 'doughnut') {
    bottom += fs * 1.8;
    if (!(el.type === 'column' && el.dataLabels)) left = fs * 3.2;
  }
  if (el.xTitle) {
    if (el.type === 'bar') left += fs * 1.6;
    else bottom += fs * 1.6;
  }
  if (el.yTitle && !(el.type === 'column' && el.dataLabels)) {
    if (el.type === 'bar') bottom += fs * 1.6;
    else left += fs * 1.6;
  }
  return { x: left, y: top, w: Math.max(10, w - left - right), h: Math.max(10, h - top - bottom) };
}
