// One slide drawn from its plan: a paragraph whose lines the engine wrote into the file is broken at
// the same places here, not wrapped again by the browser.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { DeckPlan, PlanParagraph, PlannedSlide } from '../../../shared/specs/deck-plan';
import { BUILTIN_THEMES } from '../../../shared/specs/themes';
import { SlideView } from './SlideView';

const theme = BUILTIN_THEMES[0];
const paragraph = (p: Partial<PlanParagraph>): PlanParagraph => ({ text: '', level: 0, bullet: 'none', sizePt: 32, bold: true, color: '111111', spaceAfterPt: 0, ...p });

function html(paragraphs: PlanParagraph[], align: 'left' | 'center' = 'left'): string {
  const slide: PlannedSlide = {
    source_index: 0,
    part: 0,
    master: 'content',
    background: 'FFFFFF',
    elements: [{ kind: 'text', id: 'title', role: 'title', box: { x: 0.5, y: 0.4, w: 6, h: 1.4 }, font: 'heading', paragraphs, align, valign: 'top', lineHeight: 1.15, lines: 2 }],
  };
  const plan: DeckPlan = { size: { w: 13.333, h: 7.5 }, theme: theme?.name ?? 'academic', slides: [slide], metrics: 'table' };
  if (!theme) throw new Error('no theme');
  return renderToStaticMarkup(<SlideView taskId="t" plan={plan} slide={slide} theme={theme} width={640} />);
}

const text = (s: string): string => s.replace(/<br\/>/g, '|').replace(/<[^>]+>/g, '');

describe('SlideView: line breaks', () => {
  it('breaks a paragraph where the file breaks it (its plan lines), balanced heading and all', () => {
    const out = html([paragraph({ text: '面向城市内涝预警的多源数据融合方法研究', lines: ['面向城市内涝预警的', '多源数据融合方法研究'] })]);
    expect(text(out)).toBe('面向城市内涝预警的|多源数据融合方法研究');
  });

  it('leaves a paragraph without lines to wrap', () => {
    expect(text(html([paragraph({ text: 'A short title' })]))).toBe('A short title');
  });
});

describe('SlideView: a full-width opening bracket at a line start', () => {
  const trimmed = (out: string): string[] => Array.from(out.matchAll(/class="slide-line-start-bracket"><span[^>]*>([^<]*)</gu), (m) => m[1] ?? '');

  it('is set half an em sooner at the start of a paragraph and of a written line, as the file sets it', () => {
    const out = html([paragraph({ text: '（P95 延迟）在高峰期升高' }), paragraph({ text: '重排阶段线性增长（见下页图表）与其后', lines: ['重排阶段线性增长', '（见下页图表）与其后'] })]);
    expect(trimmed(out)).toEqual(['（', '（']);
    expect(text(out)).toBe('（P95 延迟）在高峰期升高重排阶段线性增长|（见下页图表）与其后');
  });

  it('is left alone inside a line, in centred text and after a numbered bullet', () => {
    expect(trimmed(html([paragraph({ text: '中间的（括号）不动' })]))).toEqual([]);
    expect(trimmed(html([paragraph({ text: '（居中）的文字' })], 'center'))).toEqual([]);
    expect(trimmed(html([paragraph({ text: '（编号）之后', bullet: 'number' })]))).toEqual([]);
  });
});
