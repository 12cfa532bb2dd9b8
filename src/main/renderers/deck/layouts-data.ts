// Data layouts: native charts (editable in PowerPoint) and tables paginated with the header
// repeated on every continuation slide.
import type PptxGenJS from 'pptxgenjs';
import { containsCjk, type ChartSpec, type DeckSlide } from '../../../shared/specs/deck';
import { fontFaceFor } from '../../../shared/specs/themes';
import { CELL_MARGIN_IN, layoutTable } from './fit';
import { FIT_SLACK_IN } from './geometry';
import { lineSpacingPt } from './measure';
import { type SlideReport } from './report';
import { addContentSlide, type RenderContext } from './slide-kit';
import { paragraphRuns } from './text-runs';

type SlideOf<L extends DeckSlide['layout']> = Extract<DeckSlide, { layout: L }>;

const CHART_NAMES: Record<ChartSpec['type'], PptxGenJS.CHART_NAME> = {
  bar: 'bar',
  column: 'bar',
  line: 'line',
  pie: 'pie',
  doughnut: 'doughnut',
  area: 'area',
  scatter: 'scatter',
};

function chartData(chart: ChartSpec): { name: string; labels?: string[]; values: number[] }[] {
  if (chart.type === 'scatter') {
    // pptxgenjs scatter: the first series holds the x values, the others the y values.
    return [{ name: chart.x_title ?? 'x', values: chart.categories.map(Number) }, ...chart.series.map((s) => ({ name: s.name, values: s.values }))];
  }
  return chart.series.map((s) => ({ name: s.name, labels: chart.categories, values: s.values }));
}

export function drawChartSlide(ctx: RenderContext, s: SlideOf<'chart'>, report: SlideReport): void {
  const { slide, body } = addContentSlide(ctx, report, s.title);
  const { chart } = s;
  const p = ctx.theme.palette;
  const allText = [chart.title ?? '', chart.x_title ?? '', chart.y_title ?? '', chart.unit ?? '', ...chart.categories, ...chart.series.map((x) => x.name)];
  // One face for the whole chart: chart text cannot be split into script runs, and CJK faces carry Latin glyphs.
  const face = fontFaceFor(ctx.theme, 'body', allText.some(containsCjk));
  const round = chart.type === 'pie' || chart.type === 'doughnut';
  const yTitle = chart.y_title && chart.unit ? `${chart.y_title} (${chart.unit})` : (chart.y_title ?? chart.unit);
  const many = chart.categories.length > 12;
  report.checkContrast('chart labels', p.text, p.background);
  report.checkWords([s.title, chart.title ?? '']);
  const opts: PptxGenJS.IChartOpts = {
    ...body,
    chartColors: p.chart,
    showTitle: Boolean(chart.title),
    title: chart.title,
    titleFontFace: face,
    titleFontSize: 16,
    titleColor: p.text,
    showLegend: chart.series.length > 1 || round,
    legendPos: round ? 'r' : 'b',
    legendFontFace: face,
    legendFontSize: 14,
    legendColor: p.text,
    catAxisLabelFontFace: face,
    catAxisLabelFontSize: many ? 12 : 14,
    catAxisLabelColor: p.text,
    valAxisLabelFontFace: face,
    valAxisLabelFontSize: 13,
    valAxisLabelColor: p.muted,
    showCatAxisTitle: !round && Boolean(chart.x_title),
    catAxisTitle: chart.x_title,
    catAxisTitleFontFace: face,
    catAxisTitleFontSize: 14,
    catAxisTitleColor: p.muted,
    showValAxisTitle: !round && Boolean(yTitle),
    valAxisTitle: yTitle,
    valAxisTitleFontFace: face,
    valAxisTitleFontSize: 14,
    valAxisTitleColor: p.muted,
    valGridLine: { color: p.tableBorder, size: 0.75, style: 'solid' },
    catGridLine: { style: 'none' },
    valAxisLineShow: false,
    catAxisLineColor: p.tableBorder,
    dataLabelFontFace: face,
    dataLabelFontSize: 12,
    dataLabelColor: round ? p.onAccent : p.text,
  };
  if (chart.type === 'bar' || chart.type === 'column') {
    opts.barDir = chart.type === 'bar' ? 'bar' : 'col';
    opts.barGapWidthPct = 60;
  }
  if (round) {
    opts.showPercent = true;
    opts.showValue = false;
    if (chart.type === 'doughnut') opts.holeSize = 55;
  }
  if (chart.type === 'line' || chart.type === 'scatter') {
    opts.lineSize = 2.5;
    opts.lineDataSymbol = 'circle';
    opts.lineDataSymbolSize = 7;
  }
  if (chart.type === 'scatter') opts.lineSize = 0;
  slide.addChart(CHART_NAMES[chart.type], chartData(chart), opts);
  if (s.notes) slide.addNotes(s.notes);
}

export function drawTableSlide(ctx: RenderContext, s: SlideOf<'table'>, report: SlideReport): void {
  const { theme } = ctx;
  const p = theme.palette;
  const { header, rows } = s.table;
  const first = addContentSlide(ctx, report, s.title);
  const body = first.body;
  if (s.notes) first.slide.addNotes(s.notes);
  report.checkEmptiness(rows.flat(), false);
  report.checkWords([s.title, ...header, ...rows.slice(0, 8).flat()]);
  if (rows.length === 0) report.add('empty', 'the table has a header but no rows');
  const layout = layoutTable(header, rows, { w: body.w, h: body.h - FIT_SLACK_IN }, { base: theme.sizes.table, lineHeight: theme.lineHeight });
  if (layout.shrunk) report.add('shrunk', `table text shrunk from ${theme.sizes.table} to ${layout.size} pt`);
  if (layout.pages.length > 1) report.add('split', `${rows.length} rows did not fit one slide; continued on ${layout.pages.length - 1} more with the header repeated`);
  if (layout.truncatedRows.length > 0) {
    report.add('dropped', `${layout.truncatedRows.length} row(s) taller than a slide were cut: rows ${layout.truncatedRows.map((r) => r + 1).join(', ')}`);
  }
  report.checkContrast('table header', p.tableHeaderText, p.tableHeader);
  report.checkContrast('table text', p.text, p.background);
  report.checkContrast('table text (striped rows)', p.text, p.tableZebra);
  const spacing = lineSpacingPt(layout.size, theme.lineHeight);
  const cell = (text: string, color: string, fill: string, bold: boolean): PptxGenJS.TableCell => ({
    text: paragraphRuns(text, { role: 'body', size: layout.size, color, bold }, theme, ctx.cjkLang, { lineSpacing: spacing }, true),
    options: { fill: { color: fill }, valign: bold ? 'middle' : 'top', margin: CELL_MARGIN_IN, fontSize: layout.size },
  });
  const pages = layout.pages.length > 0 ? layout.pages : [[]];
  pages.forEach((rowIdx, i) => {
    const slide = i === 0 ? first.slide : addContentSlide(ctx, report, s.title, i).slide;
    const tableRows: PptxGenJS.TableRow[] = [
      header.map((h) => cell(h, p.tableHeaderText, p.tableHeader, true)),
      ...rowIdx.map((r, k) => (layout.rows[r] ?? []).map((c) => cell(c, p.text, k % 2 === 1 ? p.tableZebra : p.background, false))),
    ];
    slide.addTable(tableRows, {
      x: body.x,
      y: body.y,
      w: body.w,
      colW: layout.colW,
      rowH: [layout.headerH, ...rowIdx.map((r) => layout.rowH[r] ?? 0.4)],
      border: { type: 'solid', pt: 0.75, color: p.tableBorder },
      autoPage: false,
    });
  });
}
