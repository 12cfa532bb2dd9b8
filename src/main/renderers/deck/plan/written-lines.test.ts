import { describe, expect, it } from 'vitest';
import { validateDeckSpec } from '../../../../shared/specs/deck';
import { slideSize } from '../../../../shared/specs/deck-geometry';
import { type PlanParagraph, type TextElement } from '../../../../shared/specs/deck-plan';
import { BUILTIN_THEMES } from '../../../../shared/specs/themes';
import { textProps } from '../draw/text';
import { drawContext } from '../draw/test-support';
import { SAFETY, tableMeasurer } from '../../typesetting/fonts';
import { planDeck } from './index';
import { drawnLines } from './written-lines';

const theme = BUILTIN_THEMES[0];

/** The lines a text element's first paragraph is written in: its runs' text, split where a run starts a new line. */
function writtenLines(el: TextElement): string[] {
  const lines: string[] = [''];
  for (const run of textProps(drawContext(theme), el)) {
    if (run.options?.softBreakBefore) lines.push('');
    lines[lines.length - 1] += (run.text ?? '').replace(/\u2060/g, '');
  }
  return lines;
}

describe('written-in lines are a fact of the plan', () => {
  it("stores a balanced heading's two lines on its paragraph, and the file is written in exactly those", () => {
    const title = '面向城市内涝预警的多源数据融合方法研究：从物理模型到数据驱动的预测框架';
    const checked = validateDeckSpec({ title: 'T', slides: [{ layout: 'bullets', title, bullets: ['短句。'] }] });
    if (!checked.ok) throw new Error(checked.errors.join('; '));
    const { plan } = planDeck(checked.spec, { theme, measurer: tableMeasurer, size: slideSize('16:9'), language: 'zh-CN', baseDir: '.' });
    const el = plan.slides[0]?.elements.find((e): e is TextElement => e.kind === 'text' && e.role === 'title');
    const lines = el?.paragraphs[0]?.lines;
    expect(lines).toHaveLength(2);
    expect(lines?.join('')).toBe(title);
    expect(writtenLines(el as TextElement)).toEqual(lines);
    // Text the client wraps by itself carries no lines.
    const body = plan.slides[0]?.elements.find((e): e is TextElement => e.kind === 'text' && e.role === 'body');
    expect(body?.paragraphs[0]?.lines).toBeUndefined();
  });
});

describe('a line that starts with an opening bracket', () => {
  const paragraph: PlanParagraph = { text: '本地优先的工具（资料留在电脑）', bullet: 'none', level: 0, sizePt: 20, bold: false, color: '000000', spaceAfterPt: 0 };
  /** 7.6 em of 20 pt: "（资料留在电脑）" (8 em) fits only when its bracket starts half an em sooner. */
  const boxW = (7.6 * 20 * SAFETY) / 72;
  const ctx = { measurer: tableMeasurer, theme };

  it('is written in with the half em its bracket gives back in flush-left text, as the file sets it', () => {
    expect(drawnLines(ctx, paragraph, 'body', boxW, 'left')).toEqual(['本地优先的工具', '（资料留在电脑）']);
    expect(drawnLines(ctx, paragraph, 'body', boxW, 'justify')).toEqual(['本地优先的工具', '（资料留在电脑）']);
  });

  it('gets no more room in centred text, which the file does not trim', () => {
    expect(drawnLines(ctx, paragraph, 'body', boxW, 'center')).toEqual(['本地优先的工具', '（资料留在', '电脑）']);
  });
});
