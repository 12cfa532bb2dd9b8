import { describe, expect, it } from 'vitest';
import { computeHeadingLabels, headingKey, labelJoiner } from './heading-labels';

function labelsInOrder(sections: string[], numbering: 'decimal' | 'chinese'): string[] {
  const labels = computeHeadingLabels(sections, numbering);
  return [...labels.entries()].map(([key, label]) => `${key}=${label}`);
}

describe('computeHeadingLabels', () => {
  it('numbers nsfc headings 一、/（一）/1. and continues across section files', () => {
    const first = '# 立项依据\n\n正文\n\n## 研究背景\n\n### 国内现状\n\n### 国外现状\n';
    const second = '# 研究目标\n\n## 总体目标\n\n### 分目标\n\n#### 第四级\n\n##### 不编号\n';
    const labels = computeHeadingLabels([first, second], 'chinese');
    expect(labels.get(headingKey(0, 0))).toBe('一、');
    expect(labels.get(headingKey(0, first.indexOf('## 研究背景')))).toBe('（一）');
    expect(labels.get(headingKey(0, first.indexOf('### 国内现状')))).toBe('1.');
    expect(labels.get(headingKey(0, first.indexOf('### 国外现状')))).toBe('2.');
    expect(labels.get(headingKey(1, 0))).toBe('二、');
    expect(labels.get(headingKey(1, second.indexOf('## 总体目标')))).toBe('（一）');
    expect(labels.get(headingKey(1, second.indexOf('#### 第四级')))).toBe('（1）');
    // ##### is styled but never numbered
    expect(labels.has(headingKey(1, second.indexOf('##### 不编号')))).toBe(false);
  });

  it('numbers report headings 1 / 1.1 / 1.1.1 and restarts lower levels', () => {
    const md = '# A\n## A1\n### A1a\n## A2\n# B\n### B-deep\n';
    expect(labelsInOrder([md], 'decimal').map((entry) => entry.split('=')[1])).toEqual(['1', '1.1', '1.1.1', '1.2', '2', '2.1.1']);
  });

  it('leaves the references heading unnumbered without using up a number', () => {
    const md = '# Intro\n# References\n# Appendix\n';
    const labels = computeHeadingLabels([md], 'decimal');
    expect(labels.get(headingKey(0, md.indexOf('# References')))).toBeUndefined();
    expect(labels.get(headingKey(0, md.indexOf('# Appendix')))).toBe('2');
  });

  it('ignores "#" inside code blocks', () => {
    const md = '```\n# not a heading\n```\n\n# Real\n';
    expect(labelsInOrder([md], 'decimal')).toEqual([`${headingKey(0, md.indexOf('# Real'))}=1`]);
  });

  it('joins Chinese labels of levels 1-2 straight to the title', () => {
    expect(labelJoiner('chinese', 1)).toBe('');
    expect(labelJoiner('chinese', 3)).toBe(' ');
    expect(labelJoiner('chinese', 4)).toBe('');
    expect(labelJoiner('decimal', 1)).toBe(' ');
  });
});
