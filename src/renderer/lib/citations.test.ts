import { describe, expect, it } from 'vitest';
import { resolveCitedFile, splitCitations } from './citations';

describe('citations in an answer', () => {
  it('finds Chinese and English citations with their file and page, keeping the text around them', () => {
    expect(splitCitations('城市热岛效应显著（来源：heat.pdf 第 3 页）。')).toEqual([
      { kind: 'text', text: '城市热岛效应显著（' },
      { kind: 'cite', text: '来源：heat.pdf 第 3 页', citation: { file: 'heat.pdf', page: 3 } },
      { kind: 'text', text: '）。' },
    ]);
    const en = splitCitations('Cities run 2.5 °C hotter (Source: source/heat.pdf, p. 12; Source: notes.md, page 2).');
    expect(en.filter((p) => p.kind === 'cite').map((p) => (p.kind === 'cite' ? p.citation : null))).toEqual([
      { file: 'source/heat.pdf', page: 12 },
      { file: 'notes.md', page: 2 },
    ]);
  });

  it('leaves text without a page, or with another file type, alone', () => {
    expect(splitCitations('Source: heat.pdf')).toEqual([{ kind: 'text', text: 'Source: heat.pdf' }]);
    expect(splitCitations('来源：photo.jpeg 第 2 页')).toEqual([{ kind: 'text', text: '来源：photo.jpeg 第 2 页' }]);
    expect(splitCitations('')).toEqual([]);
  });

  it('resolves a cited name to the task file, the source first', () => {
    const paths = ['artifacts/heat.pdf', 'source/heat.pdf', 'source/notes.md'];
    expect(resolveCitedFile('heat.pdf', paths)).toBe('source/heat.pdf');
    expect(resolveCitedFile('artifacts/heat.pdf', paths)).toBe('artifacts/heat.pdf');
    expect(resolveCitedFile('missing.pdf', paths)).toBeNull();
  });
});
