import { describe, expect, it } from 'vitest';
import { type DeckSpecInput, validateDeckSpec } from '../../../../shared/specs/deck';
import { slideSize } from '../../../../shared/specs/deck-geometry';
import { type PlannedSlide, type TextElement } from '../../../../shared/specs/deck-plan';
import { BUILTIN_THEMES, CODE_LATIN_FACE } from '../../../../shared/specs/themes';
import { drawText } from '../draw/text';
import { drawContext, partText, writeDeck } from '../draw/test-support';
import { tableMeasurer } from '../../typesetting/fonts';
import { CODE_FLOOR_PT, CUT_LINE_MARK, CUT_LINES_MARK } from './code';
import { fontPairOf } from './text';
import { planDeck } from './index';

const theme = BUILTIN_THEMES.find((t) => t.name === 'minimal') ?? BUILTIN_THEMES[0];
const RRF = 'def rrf(runs, k=60):\n    scores = defaultdict(float)\n    for run in runs:\n        for rank, doc in enumerate(run, 1):\n            scores[doc] += 1 / (k + rank)\n    return sorted(scores)';

function planCode(code: string, language?: string): { slide: PlannedSlide; issues: { kind: string; message: string }[] } {
  const input: DeckSpecInput = { title: 'T', slides: [{ layout: 'two_column', title: '混合检索', left: { text: '只用名次。' }, right: { code, ...(language ? { language } : {}) } }] };
  const checked = validateDeckSpec(input);
  if (!checked.ok) throw new Error(checked.errors.join('; '));
  const { plan, report } = planDeck(checked.spec, { theme, measurer: tableMeasurer, size: slideSize('16:9'), language: 'zh-CN', baseDir: '.' });
  const slide = plan.slides[0];
  if (!slide) throw new Error('no slide');
  return { slide, issues: report.slides[0]?.issues ?? [] };
}

const codeBox = (slide: PlannedSlide): TextElement => slide.elements.find((e): e is TextElement => e.kind === 'text' && e.font === 'code') as TextElement;
const widthPt = (el: TextElement, line: string): number => tableMeasurer.widthPt(line, { fonts: fontPairOf(theme, 'code'), sizePt: el.paragraphs[0]?.sizePt ?? 0 });

describe('code on a slide', () => {
  it('is set line for line in the monospace face, indentation kept, at the body secondary size, every line inside its box', () => {
    const { slide, issues } = planCode(RRF, 'python');
    const el = codeBox(slide);
    expect(el.paragraphs.map((p) => p.text)).toEqual(RRF.split('\n'));
    expect(el.paragraphs.every((p) => p.sizePt === theme.sizes.body - 4)).toBe(true);
    for (const p of el.paragraphs) expect(widthPt(el, p.text)).toBeLessThanOrEqual(el.box.w * 72);
    expect(el.lines).toBe(6);
    expect(slide.elements.find((e) => e.id === 'right-code-language' && e.kind === 'text' && e.paragraphs[0]?.text === 'python')).toBeDefined();
    expect(slide.elements.some((e) => e.kind === 'shape' && e.id === 'right-code-panel')).toBe(true);
    expect(issues.filter((i) => i.kind !== 'font_fallback')).toEqual([]);
  });

  it('shrinks for a long line, and at the floor cuts it with a visible mark, the full code in the notes', () => {
    const long = `x = ${'very_long_name + '.repeat(9)}1`;
    const { slide, issues } = planCode(`a = 1\n${long}`);
    const el = codeBox(slide);
    expect(el.paragraphs[0]?.sizePt).toBe(CODE_FLOOR_PT);
    expect(el.paragraphs[1]?.text.endsWith(CUT_LINE_MARK)).toBe(true);
    for (const p of el.paragraphs) expect(widthPt(el, p.text)).toBeLessThanOrEqual(el.box.w * 72);
    expect(issues.map((i) => i.kind)).toEqual(expect.arrayContaining(['shrunk', 'dropped']));
    expect(slide.notes).toContain(long);
  });

  it('keeps the lines that fit and marks the ones left out with one "⋮" line', () => {
    const code = Array.from({ length: 40 }, (_, i) => `line_${i + 1}()`).join('\n');
    const { slide } = planCode(code);
    const el = codeBox(slide);
    expect(el.paragraphs.at(-1)?.text).toBe(CUT_LINES_MARK);
    expect(el.paragraphs.length).toBeLessThan(40);
    expect(el.box.y + el.box.h).toBeLessThanOrEqual(7.5);
  });

  it('is drawn in a box that never wraps, in the code face', async () => {
    const { slide } = planCode(RRF);
    const ctx = drawContext(theme);
    drawText(ctx, codeBox(slide));
    const { zip } = await writeDeck(ctx);
    const xml = await partText(zip, 'ppt/slides/slide1.xml');
    expect(xml).toMatch(/<a:bodyPr[^>]*wrap="none"/);
    expect(xml).toContain(`typeface="${CODE_LATIN_FACE}"`);
    expect(xml).toContain('<a:t>            scores[doc] += 1 / (k + rank)</a:t>');
  });
});

describe('code in the spec', () => {
  const errors = (right: unknown): string[] => {
    const r = validateDeckSpec({ title: 'T', slides: [{ layout: 'two_column', title: 't', left: { text: 'x' }, right }] });
    return r.ok ? [] : r.errors;
  };
  it('is one kind of a column, with an optional language', () => {
    expect(errors({ code: 'print(1)', language: 'python' })).toEqual([]);
    expect(errors({ code: 'print(1)', text: 'x' })).toEqual(['slides[0].right: expected only one of bullets, image, text, code; got text and code']);
    expect(errors({ text: 'x', language: 'python' })).toEqual(['slides[0].right.language: language is only allowed with code']);
  });
  it('names what is wrong with bad code', () => {
    expect(errors({ code: '\n\n' })).toEqual(['slides[0].right.code: must not be empty']);
    expect(errors({ code: Array.from({ length: 41 }, () => 'x').join('\n') })[0]).toMatch(/^slides\[0\]\.right\.code: 41 lines of code; at most 40/);
    expect(errors({ code: 'x'.repeat(201) })[0]).toMatch(/^slides\[0\]\.right\.code: line 1 has more than 200 characters/);
    expect(errors({ code: 'x', language: 'py<script>' })[0]).toMatch(/^slides\[0\]\.right\.language: a language name/);
  });
});
