// The order a planned chart reads in, decided once here for both chart drawers (the .pptx and the
// preview). A plan's categories and series are in reading order: horizontal bars put the first
// category at the top and, inside a category, the first series on top; the legend lists the series
// in that same order (left to right, or top to bottom at the right); pie legends list the slices.
//
// Office charts grow a horizontal bar chart from the bottom: the first category and, inside it, the
// first series sit nearest the origin. Excel and PowerPoint then list the legend to match the bars,
// but LibreOffice always lists a horizontal bar chart's legend bottom series first, whatever the axis
// orientation. Reversing the category axis (maxMin) put the bars in reading order but left
// LibreOffice's legend backwards. Writing the data bottom-up on an ordinary axis gives the reading
// order in both, with the value axis at the bottom where it belongs.
import type { ChartElement } from './deck-plan';

type PlanSeries = ChartElement['series'][number];

/** Whether the file holds the chart's data bottom-up (last category and last series first). */
export function writtenBottomUp(el: Pick<ChartElement, 'type'>): boolean {
  return el.type === 'bar';
}

/** The categories and series as the .pptx holds them: reading order, or bottom-up for horizontal bars. */
export function fileDataOrder(el: Pick<ChartElement, 'type' | 'categories' | 'series'>): { categories: string[]; series: PlanSeries[] } {
  if (!writtenBottomUp(el)) return { categories: [...el.categories], series: [...el.series] };
  const flip = <T>(xs: readonly T[] | undefined): T[] | undefined => (xs ? [...xs].reverse() : undefined);
  return {
    categories: [...el.categories].reverse(),
    series: [...el.series].reverse().map((s) => {
      const pointColors = flip(s.pointColors);
      return { ...s, values: [...s.values].reverse(), ...(pointColors ? { pointColors } : {}) };
    }),
  };
}

export interface LegendEntry {
  name: string;
  color: string;
}

/** The legend's entries in reading order: the slices of a pie or doughnut, else the series. */
export function legendEntries(el: Pick<ChartElement, 'type' | 'categories' | 'series' | 'legend'>): LegendEntry[] {
  if (el.legend === 'none') return [];
  if (el.type === 'pie' || el.type === 'doughnut') {
    const only = el.series[0];
    return el.categories.map((name, i) => ({ name, color: only?.pointColors?.[i] ?? only?.color ?? '888888' }));
  }
  return el.series.map((s) => ({ name: s.name, color: s.color }));
}
