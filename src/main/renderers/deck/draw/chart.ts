// Draws a planned chart as a native pptxgenjs chart (editable in PowerPoint). Every decision is in
// the element; this maps it onto pptxgenjs options, working around three of its habits:
// - Office grows a horizontal bar chart from the bottom: its data is written bottom-up on an
//   ordinary axis (chart-order.ts), so bars and legend read in the plan's order in PowerPoint and
//   LibreOffice alike.
// - One series given several chartColors gets a `c:dPt` per bar in those colours (a rainbow), so a
//   series is given exactly its colours: one, or one per point when the plan says so.
// - Pie slices take chartColors by index (random past the end), so slices get one colour each.
import type PptxGenJS from 'pptxgenjs';
import { type ChartElement } from '../../../../shared/specs/deck-plan';
import { fileDataOrder } from '../../../../shared/specs/chart-order';
import { AREA_FILL_OPACITY, CHART_TITLE_STEP_PT, chartFace, labelColorOn } from '../../../../shared/specs/chart-style';
import { type DrawContext } from './context';

const CHART_NAMES: Record<ChartElement['type'], PptxGenJS.CHART_NAME> = {
  bar: 'bar',
  column: 'bar',
  line: 'line',
  pie: 'pie',
  doughnut: 'doughnut',
  area: 'area',
  scatter: 'scatter',
};

type ChartData = { name: string; labels?: string[]; values: number[] }[];

function chartData(el: ChartElement): ChartData {
  if (el.type === 'scatter') {
    // pptxgenjs scatter: the first series holds the x values, the others the y values.
    return [{ name: el.xTitle ?? 'x', values: el.categories.map(Number) }, ...el.series.map((s) => ({ name: s.name, values: s.values }))];
  }
  const { categories, series } = fileDataOrder(el);
  return series.map((s) => ({ name: s.name, labels: categories, values: s.values }));
}

/** The colours pptxgenjs should use, in file order: per point for a single series that has them, else per series. */
export function chartColorsFor(el: ChartElement): string[] {
  const { series } = fileDataOrder(el);
  const only = series.length === 1 ? series[0] : undefined;
  if (only?.pointColors && only.pointColors.length > 0) return only.pointColors;
  return series.map((s) => s.color);
}

export function chartOptions(el: ChartElement, face: string): PptxGenJS.IChartOpts {
  const round = el.type === 'pie' || el.type === 'doughnut';
  const bars = el.type === 'bar' || el.type === 'column';
  const size = el.fontSizePt;
  // Labelled bars need no value axis: the labels are the values (less ink, nothing to cross-read).
  const hideValueAxis = bars && el.dataLabels;
  // ...but an axis title (the unit, what is measured) must stay: keep the axis, without its labels.
  const titleOnlyAxis = hideValueAxis && Boolean(el.yTitle);
  const opts: PptxGenJS.IChartOpts = {
    ...el.box,
    chartColors: chartColorsFor(el),
    showTitle: Boolean(el.title),
    ...(el.title ? { title: el.title } : {}),
    titleFontFace: face,
    titleFontSize: size + CHART_TITLE_STEP_PT,
    titleColor: el.textColor,
    showLegend: el.legend !== 'none',
    legendPos: el.legend === 'right' ? 'r' : 'b',
    legendFontFace: face,
    legendFontSize: size,
    legendColor: el.textColor,
    catAxisLabelFontFace: face,
    catAxisLabelFontSize: size,
    catAxisLabelColor: el.textColor,
    catAxisLineShow: !round,
    catAxisLineColor: el.gridColor,
    catAxisMajorTickMark: 'none',
    valAxisHidden: hideValueAxis && !titleOnlyAxis,
    ...(titleOnlyAxis ? { valAxisLabelPos: 'none' as const } : {}),
    valAxisLabelFontFace: face,
    valAxisLabelFontSize: size - 1,
    valAxisLabelColor: el.mutedColor,
    valAxisLabelFormatCode: el.valueAxis?.numberFormat ?? el.numberFormat,
    // The plan's scale, so the file shows the ticks the preview showed (see chart-axis.ts).
    ...(el.valueAxis ? { valAxisMinVal: el.valueAxis.min, valAxisMaxVal: el.valueAxis.max, valAxisMajorUnit: el.valueAxis.step } : {}),
    valAxisLineShow: false,
    valAxisMajorTickMark: 'none',
    showCatAxisTitle: !round && Boolean(el.xTitle),
    ...(el.xTitle ? { catAxisTitle: el.xTitle } : {}),
    catAxisTitleFontFace: face,
    catAxisTitleFontSize: size,
    catAxisTitleColor: el.mutedColor,
    showValAxisTitle: !round && Boolean(el.yTitle),
    ...(el.yTitle ? { valAxisTitle: el.yTitle } : {}),
    valAxisTitleFontFace: face,
    valAxisTitleFontSize: size,
    valAxisTitleColor: el.mutedColor,
    // One faint gridline set where an axis is read, none otherwise (data-ink).
    valGridLine: hideValueAxis || round ? { style: 'none' } : { color: el.gridColor, size: 0.5, style: 'solid' },
    catGridLine: { style: 'none' },
    showValue: el.dataLabels && !round,
    dataLabelFormatCode: el.numberFormat,
    dataLabelFontFace: face,
    dataLabelFontSize: size,
    dataLabelColor: el.type === 'doughnut' ? labelColorOn(chartColorsFor(el)) : el.textColor,
    dataNoEffects: true,
  };
  if (bars) {
    opts.barDir = el.type === 'bar' ? 'bar' : 'col';
    // Category labels at the low edge of the plot, not on the zero line a bar below zero crosses
    // (its label would sit on the category's name).
    opts.catAxisLabelPos = 'low';
    opts.barGapWidthPct = el.series.length > 1 ? 80 : 50;
    if (el.dataLabels) opts.dataLabelPosition = 'outEnd';
  }
  // pptxgenjs's types allow only the default here, though it writes any value (checked against the chart XML).
  if (el.type === 'bar') Object.assign(opts, { valAxisLabelPos: titleOnlyAxis ? 'none' : 'nextTo' });
  if (round) {
    opts.showPercent = el.dataLabels;
    opts.showLabel = false;
    // Pie labels sit outside the slices in text colour, readable whatever the slice colour.
    if (el.type === 'pie') opts.dataLabelPosition = 'outEnd';
    opts.dataBorder = { pt: 1, color: 'FFFFFF' };
    if (el.type === 'doughnut') opts.holeSize = 58;
  }
  // pptxgenjs takes the opacity in percent.
  if (el.type === 'area') opts.chartColorsOpacity = AREA_FILL_OPACITY * 100;
  if (el.type === 'line' || el.type === 'scatter') {
    opts.lineSize = el.type === 'scatter' ? 0 : 2.5;
    opts.lineDataSymbol = 'circle';
    opts.lineDataSymbolSize = 7;
    if (el.dataLabels) opts.dataLabelPosition = 't';
  }
  return opts;
}

export function drawChart(ctx: DrawContext, el: ChartElement): void {
  const face = chartFace(ctx.theme, [el.title, el.xTitle, el.yTitle, ...el.categories, ...el.series.map((s) => s.name)]);
  ctx.slide.addChart(CHART_NAMES[el.type], chartData(el), chartOptions(el, face));
}
