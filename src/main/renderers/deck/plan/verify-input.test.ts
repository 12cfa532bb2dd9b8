import { describe, expect, it } from 'vitest';
import { type ChartElement, type DeckPlan } from '../../../../shared/specs/deck-plan';
import { planToVerifyInput } from './verify-input';

const chart = (series: ChartElement['series'], legend: ChartElement['legend']): ChartElement => ({
  kind: 'chart',
  id: 'chart',
  box: { x: 1, y: 1, w: 10, h: 5 },
  type: 'bar',
  categories: ['Hybrid', 'Dense'],
  series,
  legend,
  dataLabels: true,
  numberFormat: '0',
  fontSizePt: 14,
  textColor: '111111',
  mutedColor: '555555',
  gridColor: 'DDDDDD',
});

const textOf = (el: ChartElement): string => {
  const plan: DeckPlan = { size: { w: 13.333, h: 7.5 }, theme: 'business', metrics: 'font', slides: [{ source_index: 0, part: 0, master: 'content', background: 'FFFFFF', elements: [el] }] };
  return planToVerifyInput(plan)[0]?.boxes[0]?.text ?? '';
};

describe('planToVerifyInput: the words a chart draws', () => {
  it('a single series has no legend, so its name is not expected on the slide', () => {
    expect(textOf(chart([{ name: 'Recall', values: [1, 2], color: '333333' }], 'none')).split('\n')).toEqual(['Hybrid', 'Dense']);
  });

  it('several series are named by their legend', () => {
    const two = chart([{ name: 'Recall', values: [1, 2], color: '333333' }, { name: 'Precision', values: [2, 1], color: '666666' }], 'bottom');
    expect(textOf(two).split('\n')).toEqual(['Hybrid', 'Dense', 'Recall', 'Precision']);
  });
});
