import { describe, expect, it } from 'vitest';
import { type ChartSpec, validateDeckSpec } from '../../../../shared/specs/deck';
import { slideSize } from '../../../../shared/specs/deck-geometry';
import { BUILTIN_THEMES, type Theme } from '../../../../shared/specs/themes';
import { tableMeasurer } from '../../typesetting/fonts';
import { planChartElement } from './chart';
import { invisibleSeriesMessages } from './chart-visibility';
import { planDeck } from './index';

const theme = BUILTIN_THEMES.find((t) => t.name === 'academic') as Theme;
const box = { x: 0.6, y: 1.6, w: 12, h: 5 };
const background = theme.palette.background;
const check = (spec: ChartSpec): string[] => invisibleSeriesMessages(planChartElement(spec, theme, box), background);
const models = ['GPT-4o', 'Claude', 'Qwen2', 'Llama-3'];

describe('invisibleSeriesMessages: what a chart draws that nobody sees', () => {
  it('a readable chart has nothing to say', () => {
    expect(check({ type: 'column', categories: models, series: [{ name: 'Accuracy', values: [72, 77, 82, 87] }, { name: 'Recall', values: [68, 79, 60, 71] }] })).toEqual([]);
    expect(check({ type: 'line', categories: models, series: [{ name: 'A', values: [1, 2, 3, 4] }, { name: 'B', values: [1, 2, 3, 5] }] })).toEqual([]);
  });

  it('bars too short for the value axis: the series is named, with its largest value', () => {
    const messages = check({ type: 'bar', categories: models, series: [{ name: 'Requests', values: [900, 1200, 1000, 1100] }, { name: 'Errors', values: [0.5, 1, 2, 1] }] });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/series "Errors" is drawn but cannot be seen: its largest value \(2\)/);
  });

  it('a line lying under a later one at every point: the hidden series and the one covering it', () => {
    const messages = check({ type: 'line', categories: models, series: [{ name: 'Baseline', values: [60, 62, 64, 66] }, { name: 'Ours', values: [80, 82, 84, 86] }, { name: 'Rerun', values: [60, 62, 64, 66] }] });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/series "Baseline" .* every point lies under "Rerun", drawn after it/);
  });

  it('an area lying exactly under a later one is hidden too; the last of them is the one seen', () => {
    const messages = check({ type: 'area', categories: models, series: [{ name: 'Q1', values: [5, 6, 7, 8] }, { name: 'Q2', values: [5, 6, 7, 8] }] });
    expect(messages.map((m) => m.slice(0, 12))).toEqual(['series "Q1" ']);
  });

  it('a pie slice of nothing is named', () => {
    const messages = check({ type: 'pie', categories: ['CPU', 'GPU', 'Disk'], series: [{ name: 'Cost', values: [70, 30, 0] }] });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/slice "Disk" is 0\.0% of the pie/);
  });

  it('a series in the background colour cannot be told from it', () => {
    const el = planChartElement({ type: 'column', categories: models, series: [{ name: 'A', values: [1, 2, 3, 4] }, { name: 'Ghost', values: [2, 3, 4, 5] }] }, theme, box);
    const ghost = { ...el, series: el.series.map((s) => (s.name === 'Ghost' ? { ...s, color: background } : s)) };
    expect(invisibleSeriesMessages(ghost, background)).toEqual([expect.stringMatching(/series "Ghost" is drawn in #\w+, which cannot be told from the #\w+ background/)]);
  });
});

describe('the deck quality report', () => {
  it('names a hidden series on its chart slide as hidden_series', () => {
    const checked = validateDeckSpec({
      title: 'T',
      theme: 'academic',
      slides: [
        { layout: 'chart', title: 'Two runs agree', chart: { type: 'line', categories: models, series: [{ name: 'Run 1', values: [1, 2, 3, 4] }, { name: 'Run 2', values: [1, 2, 3, 4] }] } },
        { layout: 'chart', title: 'Runs differ', chart: { type: 'line', categories: models, series: [{ name: 'Run 1', values: [1, 2, 3, 4] }, { name: 'Run 2', values: [2, 3, 4, 5] }] } },
      ],
    });
    if (!checked.ok) throw new Error(checked.errors.join('; '));
    const { report } = planDeck(checked.spec, { theme, measurer: tableMeasurer, size: slideSize('16:9'), language: 'en', baseDir: '.' });
    const hidden = report.slides.map((s) => s.issues.filter((i) => i.kind === 'hidden_series').map((i) => i.message));
    expect(hidden[0]).toEqual([expect.stringMatching(/series "Run 1" .* under "Run 2"/)]);
    expect(hidden[1]).toEqual([]);
  });
});
