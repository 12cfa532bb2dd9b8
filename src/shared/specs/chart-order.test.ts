import { describe, expect, it } from 'vitest';
import { fileDataOrder, legendEntries } from './chart-order';
import type { ChartElement } from './deck-plan';

const el = (type: ChartElement['type']): Pick<ChartElement, 'type' | 'categories' | 'series' | 'legend'> => ({
  type,
  legend: 'bottom',
  categories: ['top', 'middle', 'bottom'],
  series: [
    { name: 'A', values: [1, 2, 3], color: 'AAAAAA', pointColors: ['FF0000', 'AAAAAA', 'AAAAAA'] },
    { name: 'B', values: [4, 5, 6], color: 'BBBBBB' },
  ],
});

describe('chart reading order', () => {
  it('horizontal bars go into the file bottom-up, each value and point colour staying with its category', () => {
    const file = fileDataOrder(el('bar'));
    expect(file.categories).toEqual(['bottom', 'middle', 'top']);
    expect(file.series.map((s) => s.name)).toEqual(['B', 'A']);
    expect(file.series[1]?.values).toEqual([3, 2, 1]);
    expect(file.series[1]?.pointColors).toEqual(['AAAAAA', 'AAAAAA', 'FF0000']);
  });

  it('other charts go into the file in reading order', () => {
    const file = fileDataOrder(el('column'));
    expect(file.categories).toEqual(['top', 'middle', 'bottom']);
    expect(file.series.map((s) => s.name)).toEqual(['A', 'B']);
  });

  it('the legend lists series in reading order, pie legends the slices, no legend nothing', () => {
    expect(legendEntries(el('bar')).map((e) => e.name)).toEqual(['A', 'B']);
    expect(legendEntries({ ...el('pie'), series: [el('pie').series[0]] })).toEqual([
      { name: 'top', color: 'FF0000' },
      { name: 'middle', color: 'AAAAAA' },
      { name: 'bottom', color: 'AAAAAA' },
    ]);
    expect(legendEntries({ ...el('line'), legend: 'none' })).toEqual([]);
  });
});
