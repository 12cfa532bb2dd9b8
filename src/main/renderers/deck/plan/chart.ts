// Plans a chart element from a chart spec (first version; the chart designer replaces this file).
import { type ChartSpec } from '../../../../shared/specs/deck';
import { type ChartElement } from '../../../../shared/specs/deck-plan';
import { type Region } from '../../../../shared/specs/deck-geometry';
import { type PlanContext } from './context';

export function planChart(ctx: PlanContext, chart: ChartSpec, box: Region): ChartElement {
  const p = ctx.theme.palette;
  const round = chart.type === 'pie' || chart.type === 'doughnut';
  const decimals = Math.max(0, ...chart.series.flatMap((s) => s.values.map((v) => (String(v).split('.')[1] ?? '').length)));
  const yTitle = chart.y_title && chart.unit ? `${chart.y_title} (${chart.unit})` : (chart.y_title ?? chart.unit);
  return {
    kind: 'chart',
    id: 'chart',
    box,
    type: chart.type,
    ...(chart.title ? { title: chart.title } : {}),
    categories: [...chart.categories],
    series: chart.series.map((s, i) => ({
      name: s.name,
      values: [...s.values],
      color: p.chart[i % p.chart.length] ?? p.accent,
      ...(round ? { pointColors: s.values.map((_, k) => p.chart[k % p.chart.length] ?? p.accent) } : {}),
    })),
    legend: round ? 'right' : chart.series.length > 1 ? 'bottom' : 'none',
    dataLabels: chart.categories.length * chart.series.length <= 12,
    numberFormat: round ? '0%' : decimals > 0 ? `0.${'0'.repeat(Math.min(decimals, 2))}` : '0',
    ...(chart.x_title ? { xTitle: chart.x_title } : {}),
    ...(yTitle ? { yTitle } : {}),
    fontSizePt: 14,
    textColor: p.text,
    mutedColor: p.muted,
    gridColor: p.tableBorder,
  };
}
