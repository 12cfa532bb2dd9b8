import { describe, expect, it } from 'vitest';
import { type ChartSpec, validateDeckSpec } from '../../../../shared/specs/deck';
import { AREA_FILL_OPACITY } from '../../../../shared/specs/chart-style';
import { BUILTIN_THEMES, type Theme } from '../../../../shared/specs/themes';
import { negativeColour, numberFormatFor, planChartElement } from '../plan/chart';
import { drawChart } from './chart';
import { blocks, chartParts, drawContext, firstFill, partText, vals, writeDeck } from './test-support';

const theme = BUILTIN_THEMES.find((t) => t.name === 'business') as Theme;
const box = { x: 0.6, y: 1.6, w: 12, h: 5 };

async function chartXml(spec: ChartSpec): Promise<string> {
  const ctx = drawContext(theme);
  drawChart(ctx, planChartElement(spec, theme, box));
  const { zip } = await writeDeck(ctx);
  const parts = chartParts(zip);
  expect(parts).toHaveLength(1);
  return partText(zip, parts[0] ?? '');
}

function categoriesOf(ser: string): string[] {
  const cat = /<c:cat>([\s\S]*?)<\/c:cat>/.exec(ser)?.[1] ?? '';
  return Array.from(cat.matchAll(/<c:v>([^<]*)<\/c:v>/g), (m) => m[1] ?? '');
}

function seriesNames(xml: string): string[] {
  return blocks(xml, 'c:ser').map((s) => /<c:tx>[\s\S]*?<c:v>([^<]*)<\/c:v>/.exec(s)?.[1] ?? '');
}

const bars: ChartSpec = {
  type: 'bar',
  categories: ['Hybrid', 'Dense', 'BM25'],
  series: [{ name: 'Recall', values: [0.82, 0.74, 0.61] }],
  unit: '%',
};

/** Two series on a line chart, one of them with decimals, and both axes titled. */
const twoLines: ChartSpec = {
  type: 'line',
  categories: ['50', '100', '200', '400', '800'],
  series: [
    { name: 'Manual', values: [6, 12, 25, 51, 104] },
    { name: 'Ours', values: [0.3, 0.5, 0.9, 1.7, 3.2] },
  ],
  x_title: '文档数量（篇）',
  y_title: 'Time',
  unit: 'h',
};

describe('drawChart: horizontal bars read top to bottom in spec order', () => {
  it('writes the data bottom-up on an ordinary category axis, value axis at the bottom (see chart-order.test.ts)', async () => {
    const xml = await chartXml({ ...bars, highlight: 'Hybrid' });
    const [ser] = blocks(xml, 'c:ser');
    expect(categoriesOf(ser ?? '')).toEqual(['BM25', 'Dense', 'Hybrid']);
    // The highlighted (first, top) bar's colour travels with it to the end of the file's points.
    const fills = blocks(ser ?? '', 'c:dPt').map((d) => firstFill(d));
    expect(fills[2]).toBe(theme.palette.accent.toUpperCase());
    expect(fills[0]).not.toBe(theme.palette.accent.toUpperCase());
    const catAx = blocks(xml, 'c:catAx')[0] ?? '';
    const valAx = blocks(xml, 'c:valAx')[0] ?? '';
    expect(vals(catAx, 'c:orientation')).toEqual(['minMax']);
    expect(vals(valAx, 'c:orientation')).toEqual(['minMax']);
    expect(vals(valAx, 'c:crosses')).not.toEqual(['max']);
    expect(vals(xml, 'c:barDir')).toEqual(['bar']);
  });

  it('columns keep the natural orientation', async () => {
    const xml = await chartXml({ ...bars, type: 'column' });
    expect(vals(blocks(xml, 'c:catAx')[0] ?? '', 'c:orientation')).toEqual(['minMax']);
  });
});

describe('drawChart: colours', () => {
  it('one series is one colour: no per-bar rainbow', async () => {
    const xml = await chartXml(bars);
    const [ser] = blocks(xml, 'c:ser');
    expect(blocks(ser ?? '', 'c:dPt')).toHaveLength(0);
    expect(firstFill(ser ?? '')).toBe(theme.palette.chart[0]?.toUpperCase());
    expect(vals(xml, 'c:varyColors')).toEqual(['0']);
  });

  it('a bar below zero is coloured as a loss, and category names sit at the low edge, clear of it and its label', async () => {
    const spec: ChartSpec = { type: 'bar', categories: ['North', 'South', 'East'], series: [{ name: 'Change', values: [3.4, -2.1, 1.2] }], unit: 'pp' };
    for (const type of ['bar', 'column'] as const) {
      const xml = await chartXml({ ...spec, type });
      const [ser] = blocks(xml, 'c:ser');
      const fills = blocks(ser ?? '', 'c:dPt').map((d) => firstFill(d));
      // The middle bar stays in the middle whichever way the file orders the points.
      expect(fills[1]).toBe(negativeColour(theme.palette.background));
      expect(fills.filter((f) => f === negativeColour(theme.palette.background))).toHaveLength(1);
      expect(vals(blocks(xml, 'c:catAx')[0] ?? '', 'c:tickLblPos')).toEqual(['low']);
    }
    expect(negativeColour('FFFFFF')).toBe('C0392B');
    expect(negativeColour('1A1A2E')).toBe('F1948A');
  });

  it('several series: legend in series order, each series its own theme colour', async () => {
    const xml = await chartXml({
      type: 'column',
      categories: ['2022', '2023', '2024'],
      series: [
        { name: 'Alpha', values: [1, 2, 3] },
        { name: 'Beta', values: [2, 3, 4] },
        { name: 'Gamma', values: [3, 4, 5] },
      ],
    });
    const sers = blocks(xml, 'c:ser');
    expect(seriesNames(xml)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(sers.map((s) => vals(s, 'c:order')[0])).toEqual(['0', '1', '2']);
    expect(sers.map((s) => firstFill(s))).toEqual(theme.palette.chart.slice(0, 3).map((c) => c.toUpperCase()));
    expect(sers.every((s) => blocks(s, 'c:dPt').length === 0)).toBe(true);
    expect(vals(xml, 'c:legendPos')).toEqual(['b']);
  });

  it('highlight: the named bar in the accent colour, every other bar one receding colour', async () => {
    const xml = await chartXml({ ...bars, highlight: 'Dense' });
    const dPts = blocks(blocks(xml, 'c:ser')[0] ?? '', 'c:dPt');
    expect(dPts).toHaveLength(3);
    const fills = dPts.map((d) => firstFill(d));
    expect(fills[1]).toBe(theme.palette.accent.toUpperCase());
    expect(fills[0]).toBe(fills[2]);
    expect(fills[0]).not.toBe(theme.palette.accent.toUpperCase());
  });
});

describe('drawChart: labels, axes and units', () => {
  it('few bars carry data labels with the unit and drop the value axis and gridlines', async () => {
    const xml = await chartXml(bars);
    const dLbls = blocks(blocks(xml, 'c:ser')[0] ?? '', 'c:dLbls')[0] ?? '';
    expect(vals(dLbls, 'c:showVal')).toEqual(['1']);
    expect(dLbls).toContain('formatCode="#,##0.00&quot;%&quot;"');
    const valAx = blocks(xml, 'c:valAx')[0] ?? '';
    expect(vals(valAx, 'c:delete')).toEqual(['1']);
    expect(valAx).not.toContain('c:majorGridlines');
  });

  it('labelled bars drop the value axis with its title; the title names the chart instead when it has none', async () => {
    const xml = await chartXml({ type: 'column', categories: ['A', 'B', 'C'], series: [{ name: 'Score', values: [71.2, 73.5, 86.9] }], y_title: '得分' });
    expect(vals(blocks(xml, 'c:ser')[0] ?? '', 'c:showVal')).toEqual(['1']);
    const valAx = blocks(xml, 'c:valAx')[0] ?? '';
    expect(vals(valAx, 'c:delete')).toEqual(['1']);
    expect(valAx).not.toContain('得分');
    expect(blocks(xml, 'c:title')[0] ?? '').toContain('得分');
    const titled = await chartXml({ type: 'bar', title: 'Recall by method', categories: ['A', 'B'], series: [{ name: 'Recall', values: [0.7, 0.8] }], y_title: 'Recall' });
    expect(blocks(titled, 'c:valAx')[0] ?? '').not.toContain('<c:title>');
  });

  it('keeps a line of room above the tallest labelled column, so its label stays clear of the chart title above the plot', () => {
    const spec: ChartSpec = { type: 'column', categories: ['设备费', '人员费', '材料费', '差旅费'], series: [{ name: '2025', values: [3200, 4500, 800, 300] }, { name: '2026', values: [2800, 4900, 900, 350] }], y_title: '金额', unit: '万元' };
    const el = planChartElement(spec, theme, box);
    expect(el.title).toBe('金额');
    const axis = el.valueAxis ?? { min: 0, max: 0, step: 1 };
    // The label's line (14 pt × 1.6) over a plot of about 60% of the 5 in chart.
    const line = (el.fontSizePt * 1.6) / 72 / (box.h * 0.6);
    expect((axis.max - 4900) / (axis.max - axis.min)).toBeGreaterThanOrEqual(line);
    expect(axis.max).toBe(6000);
    // Horizontal bars keep the widest label's width free at the right instead.
    const budget = planChartElement({ type: 'bar', categories: ['2024', '2025', '2026'], series: [{ name: 'Budget', values: [3.2, 4.8, 5.1] }], unit: '$M' }, theme, box);
    const room = budget.valueAxis ?? { min: 0, max: 0, step: 1 };
    expect((room.max - 5.1) / (room.max - room.min)).toBeGreaterThan(0.08);
  });

  it('writes a currency unit before the number and the rest after it ("$3.2M"), other units after', () => {
    expect(numberFormatFor([3.2], '$M', true)).toBe('"$"#,##0.0"M"');
    expect(numberFormatFor([1200], '¥', true)).toBe('"¥"#,##0');
    // Chinese units against the number: LibreOffice draws its own gap there, a typed space would double it.
    expect(numberFormatFor([3.2], '万元', true)).toBe('#,##0.0"万元"');
    expect(numberFormatFor([12], 'ms', true)).toBe('#,##0" ms"');
    expect(numberFormatFor([12], '%', true)).toBe('#,##0"%"');
  });

  it('many bars: no labels, a value axis titled with its unit', async () => {
    const categories = Array.from({ length: 20 }, (_, i) => `C${i + 1}`);
    const xml = await chartXml({ type: 'column', categories, series: [{ name: 'Latency', values: categories.map((_, i) => i + 1) }], y_title: 'Latency', unit: 'ms' });
    expect(vals(blocks(xml, 'c:ser')[0] ?? '', 'c:showVal')).toEqual(['0']);
    const valAx = blocks(xml, 'c:valAx')[0] ?? '';
    expect(vals(valAx, 'c:delete')).toEqual(['0']);
    expect(valAx).toContain('Latency (ms)');
  });

  it("the value axis is the plan's: its scale and tick format, not the data labels' decimals", async () => {
    const xml = await chartXml(twoLines);
    const valAx = blocks(xml, 'c:valAx')[0] ?? '';
    expect(vals(valAx, 'c:min')).toEqual(['0']);
    expect(vals(valAx, 'c:max')).toEqual(['120']);
    expect(vals(valAx, 'c:majorUnit')).toEqual(['20']);
    expect(valAx).toContain('formatCode="#,##0"');
  });

  it("area series are see-through, so one series never hides another (the preview's opacity)", async () => {
    const xml = await chartXml({
      type: 'area',
      categories: ['A', 'B', 'C'],
      series: [
        { name: 'Front', values: [80, 90, 85] },
        { name: 'Behind', values: [60, 70, 65] },
      ],
    });
    const series = blocks(xml, 'c:ser');
    expect(series).toHaveLength(2);
    for (const ser of series) expect(vals(blocks(ser, 'c:spPr')[0] ?? '', 'a:alpha')).toEqual([String(AREA_FILL_OPACITY * 100_000)]);
  });

  it('pie: percentages on the slices, one colour per slice, legend at the right', async () => {
    const xml = await chartXml({ type: 'pie', categories: ['A', 'B', 'C', 'D'], series: [{ name: 'Share', values: [40, 30, 20, 10] }] });
    const ser = blocks(xml, 'c:ser')[0] ?? '';
    const fills = blocks(ser, 'c:dPt').map((d) => firstFill(d));
    expect(fills).toHaveLength(4);
    expect(new Set(fills).size).toBe(4);
    expect(vals(blocks(ser, 'c:dLbl')[0] ?? '', 'c:showPercent')).toEqual(['1']);
    expect(vals(xml, 'c:legendPos')).toEqual(['r']);
  });
});

/** The `sz` (hundredths of a point) of the text style in a chart block's `<c:txPr>`. */
function textSize(block: string): number | undefined {
  const sz = /<c:txPr>[\s\S]*?<a:defRPr[^>]*\ssz="(\d+)"/.exec(block)?.[1];
  return sz === undefined ? undefined : Number(sz) / 100;
}

describe("drawChart: text follows the deck's type scale", () => {
  it("sets axis labels and the legend at the body's secondary size (a sub-bullet's), not 14 pt", async () => {
    const secondary = theme.sizes.body - 4;
    const xml = await chartXml(twoLines);
    expect(textSize(blocks(xml, 'c:catAx')[0] ?? '')).toBe(secondary);
    expect(textSize(blocks(xml, 'c:legend')[0] ?? '')).toBe(secondary);
    const labelled = await chartXml(bars);
    expect(textSize(blocks(labelled, 'c:catAx')[0] ?? '')).toBe(secondary);
    expect(textSize(blocks(blocks(labelled, 'c:ser')[0] ?? '', 'c:dLbls')[0] ?? '')).toBe(secondary);
  });

  it('goes a step smaller only when the labels would not fit side by side, never below 12 pt', () => {
    const many: ChartSpec = { type: 'column', categories: Array.from({ length: 14 }, (_, i) => `第${i + 1}周实验组`), series: [{ name: 'n', values: Array.from({ length: 14 }, (_, i) => i + 1) }] };
    const size = planChartElement(many, theme, box).fontSizePt;
    expect(size).toBeLessThan(theme.sizes.body - 4);
    expect(size).toBeGreaterThanOrEqual(12);
    const few = planChartElement({ ...many, categories: many.categories.slice(0, 4), series: [{ name: 'n', values: [1, 2, 3, 4] }] }, theme, box).fontSizePt;
    expect(few).toBe(theme.sizes.body - 4);
  });
});

describe('chart spec validation', () => {
  const deck = (chart: unknown): unknown => ({ title: 'T', slides: [{ layout: 'chart', title: 'C', chart }] });
  const errors = (chart: unknown): string[] => {
    const r = validateDeckSpec(deck(chart));
    return r.ok ? [] : r.errors;
  };
  it('an all-zero series is valid: the planner draws it as a placeholder rather than refusing the deck', () => {
    expect(errors({ type: 'pie', categories: ['a', 'b'], series: [{ name: 's', values: [0, 0] }] })).toEqual([]);
  });
  it('an empty series is an error naming the field', () => {
    expect(errors({ type: 'bar', categories: ['a'], series: [{ name: 's', values: [] }] }).join()).toMatch(/series\[0\]\.values: empty series/);
  });
  it('highlight must be a category', () => {
    expect(errors({ ...bars, highlight: 'Nope' }).join()).toMatch(/chart\.highlight: "Nope" is not a category/);
    expect(errors({ ...bars, highlight: 'BM25' })).toEqual([]);
  });
});
