import { describe, expect, it } from 'vitest';
import type { ChartElement } from '../../shared/specs/deck-plan';
import { barMarks, chartPieSlices, formatChartValue, plotArea, valueScale } from './plan-chart';

const base: ChartElement = {
  kind: 'chart',
  id: 'chart',
  box: { x: 0, y: 0, w: 10, h: 5 },
  type: 'bar',
  categories: ['first', 'second', 'third'],
  series: [{ name: 's', values: [3, 2, 1], color: '777777', pointColors: ['777777', 'FF0000', '777777'] }],
  legend: 'none',
  dataLabels: true,
  numberFormat: '#,##0.0" ms"',
  fontSizePt: 14,
  textColor: '111111',
  mutedColor: '555555',
  gridColor: 'DDDDDD',
};

describe('plan-chart geometry', () => {
  it('horizontal bars put the first category at the top, with the planned point colours', () => {
    const marks = barMarks(base, { x: 0, y: 0, w: 400, h: 300 });
    expect(marks.map((m) => m.category)).toEqual([0, 1, 2]);
    expect(marks[0].y).toBeLessThan(marks[1].y);
    expect(marks[1].y).toBeLessThan(marks[2].y);
    expect(marks[0].width).toBeGreaterThan(marks[2].width);
    expect(marks.map((m) => m.color)).toEqual(['777777', 'FF0000', '777777']);
  });

  it('columns run left to right in one colour per series', () => {
    const el: ChartElement = { ...base, type: 'column', series: [{ name: 'a', values: [1, 2], color: 'AAAAAA' }, { name: 'b', values: [2, 1], color: 'BBBBBB' }], categories: ['x', 'y'] };
    const marks = barMarks(el, { x: 0, y: 0, w: 400, h: 300 });
    expect(marks.filter((m) => m.series === 0).every((m) => m.color === 'AAAAAA')).toBe(true);
    expect(marks.filter((m) => m.series === 1).every((m) => m.color === 'BBBBBB')).toBe(true);
    expect(marks[0].x).toBeLessThan(marks[1].x);
  });

  it("draws the plan's value axis, as the .pptx does, and an even split for plans made without one", () => {
    const planned: ChartElement = { ...base, type: 'column', valueAxis: { min: 0, max: 120, step: 20, numberFormat: '#,##0' } };
    expect(valueScale(planned)).toEqual({ min: 0, max: 120, ticks: [0, 20, 40, 60, 80, 100, 120] });
    const { valueAxis: _none, ...older } = planned;
    expect(valueScale(older).ticks).toHaveLength(5);
  });

  it('formats values like the Excel number format', () => {
    expect(formatChartValue(1234.5, '#,##0.0" ms"')).toBe('1,234.5 ms');
    expect(formatChartValue(82, '#,##0"%"')).toBe('82%');
    expect(formatChartValue(0.4, '0%')).toBe('40%');
  });

  it('pie slices take their planned colours; the plot leaves room for a right legend', () => {
    const el: ChartElement = { ...base, type: 'pie', legend: 'right', series: [{ name: 's', values: [1, 1], color: 'AAAAAA', pointColors: ['AAAAAA', 'BBBBBB'] }], categories: ['a', 'b'] };
    expect(chartPieSlices(el, 50, 50, 40).map((s) => s.color)).toEqual(['AAAAAA', 'BBBBBB']);
    const plot = plotArea(el, 700, 360);
    expect(plot.x + plot.w).toBeLessThan(700);
  });
});
