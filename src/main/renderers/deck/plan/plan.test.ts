import { describe, it, expect } from 'vitest';
import { joinByline } from './layouts-hero';
import { fileURLToPath } from 'node:url';
import { deckLanguage, type DeckSpecInput, type QualityReport, validateDeckSpec } from '../../../../shared/specs/deck';
import { type DeckPlan, type TextElement } from '../../../../shared/specs/deck-plan';
import { BODY_FLOOR_PT, footerBand, slideSize } from '../../../../shared/specs/deck-geometry';
import { BUILTIN_THEMES, findTheme, type Theme } from '../../../../shared/specs/themes';
import { tableMeasurer, TableMeasurer } from '../../typesetting/fonts';
import { mergeRepeatedIssues, ReportBuilder, shrunkMessage } from '../report';
import { type PlanContext } from './context';
import { planDeck } from './index';
import { edgeSpec, sampleSlides } from './samples';
import { measureParagraphs } from './text';
import { planToVerifyInput } from './verify-input';

const baseDir = fileURLToPath(new URL('../../../../../samples/deck-zh-talk/', import.meta.url));
const IMAGE = 'figure-pipeline.png';

function plan(input: DeckSpecInput, theme?: Theme): { plan: DeckPlan; report: QualityReport; ctx: PlanContext } {
  const v = validateDeckSpec(input);
  if (!v.ok) throw new Error(v.errors.join('; '));
  const spec = v.spec;
  const t = theme ?? findTheme(spec.theme);
  if (!t) throw new Error(`no theme ${spec.theme}`);
  const o = { theme: t, measurer: tableMeasurer, size: slideSize(spec.aspect), language: deckLanguage(spec), baseDir };
  const ctx: PlanContext = { ...o, spec, index: 0, report: new ReportBuilder().begin(0) };
  return { ...planDeck(spec, o), ctx };
}

function kinds(report: QualityReport, index: number): string[] {
  return report.slides[index]?.issues.map((i) => i.kind) ?? [];
}

/** Every text fits its box as measured; nothing leaves the slide; content stays out of the footer band. */
function expectSoundGeometry(result: ReturnType<typeof plan>): void {
  const { plan: p, ctx } = result;
  const band = footerBand({ ...slideSize('16:9'), w: p.size.w, h: p.size.h });
  p.slides.forEach((slide, n) => {
    for (const el of slide.elements) {
      const where = `slide ${n + 1} ${el.id}`;
      expect(el.box.x, where).toBeGreaterThanOrEqual(-1e-6);
      expect(el.box.y, where).toBeGreaterThanOrEqual(-1e-6);
      expect(el.box.x + el.box.w, where).toBeLessThanOrEqual(p.size.w + 1e-6);
      expect(el.box.y + el.box.h, where).toBeLessThanOrEqual(p.size.h + 1e-6);
      if (el.kind === 'text') {
        const m = measureParagraphs(ctx, el.paragraphs, el.font, el.box.w, el.lineHeight);
        expect(m.height, `${where} text height`).toBeLessThanOrEqual(el.box.h + 1e-6);
        expect(el.lines, where).toBe(m.lines.reduce((a, b) => a + b, 0));
        if (el.role === 'body') for (const para of el.paragraphs) expect(para.sizePt, where).toBeGreaterThanOrEqual(BODY_FLOOR_PT);
      }
      const decorative = el.kind === 'shape' || el.kind === 'image';
      if (slide.master === 'content' && !(el.kind === 'text' && el.fromMaster) && !decorative) {
        expect(el.box.y + el.box.h, `${where} enters the footer band`).toBeLessThanOrEqual(band.y + 1e-6);
      }
    }
  });
}

describe('planDeck: every layout, every theme, dense and sparse', () => {
  const { sparse, dense } = sampleSlides(IMAGE);
  for (const theme of BUILTIN_THEMES) {
    for (const [name, slides] of [['sparse', sparse], ['dense', dense]] as const) {
      it(`${theme.name}, ${name}`, () => {
        const result = plan({ title: 'Samples', theme: theme.name, slides }, theme);
        expectSoundGeometry(result);
        expect(result.plan.slides.length).toBeGreaterThanOrEqual(slides.length);
      });
    }
  }
  it('4:3 too', () => expectSoundGeometry(plan({ title: 'Samples', aspect: '4:3', slides: dense })));
});

describe('planDeck: compromises, in order, all reported', () => {
  it('plans the edge spec within bounds and reports every compromise', () => {
    const result = plan(edgeSpec());
    expectSoundGeometry(result);
    const { plan: p, report } = result;
    expect(kinds(report, 0)).toEqual(expect.arrayContaining(['dropped', 'emoji_font', 'font_fallback']));
    expect(kinds(report, 1)).toContain('dropped');
    expect(kinds(report, 2)).toContain('split');
    expect(kinds(report, 3)).toContain('split');
    // The cut quote ends with an ellipsis on the slide; the notes hold all of it.
    const quoteSlide = p.slides.find((s) => s.source_index === 1);
    const quote = quoteSlide?.elements.find((e): e is TextElement => e.kind === 'text' && e.role === 'quote');
    expect(quote?.paragraphs.at(-1)?.text.endsWith('…')).toBe(true);
    expect(quoteSlide?.notes?.replace(/\s+/g, '')).toContain(edgeSpec().slides[1] && 'Longquotewords'.repeat(50));
    // Titles never take more than two lines.
    for (const s of p.slides) for (const e of s.elements) if (e.kind === 'text' && e.role === 'title' && s.master === 'content') expect(e.lines).toBeLessThanOrEqual(2);
  });

  it('splits 12 bullets evenly (6 + 6) with continuation titles, never a lone bullet', () => {
    const { plan: p, report } = plan(edgeSpec());
    const parts = p.slides.filter((s) => s.source_index === 2);
    expect(parts).toHaveLength(2);
    const counts = parts.map((s) => s.elements.filter((e): e is TextElement => e.kind === 'text' && e.role === 'body').flatMap((e) => e.paragraphs).length);
    expect(counts).toEqual([6, 6]);
    const title = parts[1]?.elements.find((e): e is TextElement => e.kind === 'text' && e.role === 'title');
    expect(title?.paragraphs[0]?.text).toBe('Twelve bullets (cont.)');
    expect(report.slides[2]?.output_slides).toEqual([3, 4]);
  });

  it('sets 8 short bullets in two columns, and reports it', () => {
    const { plan: p, report } = plan({ title: 'x', slides: [{ layout: 'bullets', title: 'Eight', bullets: Array.from({ length: 8 }, (_, i) => `Point ${i}`) }] });
    const bodies = p.slides[0]?.elements.filter((e) => e.kind === 'text' && e.role === 'body') ?? [];
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.box.y).toBeCloseTo(bodies[1]?.box.y ?? -1, 6);
    expect(kinds(report, 0)).toContain('restructured');
  });

  it('shortens long bullets on the slide and keeps their full text in the notes', () => {
    const longText = `The first sentence is short. ${'Then a great deal more detail follows that nobody can read from the back of the room. '.repeat(4)}`;
    const { plan: p, report } = plan({ title: 'x', slides: [{ layout: 'bullets', title: 'Long', bullets: Array.from({ length: 6 }, () => longText) }] });
    expect(kinds(report, 0)).toContain('restructured');
    const first = p.slides[0]?.elements.find((e): e is TextElement => e.kind === 'text' && e.role === 'body');
    expect(first?.paragraphs[0]?.text).toBe('The first sentence is short.');
    expect(p.slides[0]?.notes).toContain(longText.trim());
  });

  it('composes short content in the optical middle with larger type', () => {
    const { plan: p } = plan({ title: 'x', slides: [{ layout: 'bullets', title: 'Short', bullets: ['One', 'Two'] }] });
    const title = p.slides[0]?.elements.find((e) => e.kind === 'text' && e.role === 'title') as TextElement;
    const body = p.slides[0]?.elements.find((e) => e.kind === 'text' && e.role === 'body') as TextElement;
    expect(body.paragraphs[0]?.sizePt).toBeGreaterThan(findTheme('academic')?.sizes.body ?? 99);
    expect(body.box.y - (title.box.y + title.box.h)).toBeGreaterThan(1);
  });

  it('keeps the accent bar beside the measured title, however many lines', () => {
    for (const t of ['Short', 'A title long enough to need a second line on a wide slide, which it really does']) {
      const { plan: p } = plan({ title: 'x', slides: [{ layout: 'bullets', title: t, bullets: ['a', 'b', 'c', 'd'] }] });
      const els = p.slides[0]?.elements ?? [];
      const title = els.find((e) => e.kind === 'text' && e.role === 'title') as TextElement;
      const bar = els.find((e) => e.id === 'title-mark');
      const body = els.find((e) => e.kind === 'text' && e.role === 'body');
      expect(bar && bar.box.x + bar.box.w).toBeLessThan(title.box.x);
      expect(bar && bar.box.y + bar.box.h).toBeLessThanOrEqual(title.box.y + title.box.h);
      expect(bar && bar.box.h).toBeGreaterThan((title.lines - 1) * 0.4);
      expect(body?.box.y).toBeGreaterThan(title.box.y + title.box.h);
    }
  });

  it('never sets text in italic and reports a missing picture', () => {
    const { plan: p, report } = plan({ title: '引用', slides: [{ layout: 'image', title: '图', image: 'nope.png', caption: '说明' }, { layout: 'quote', quote: '好的综述是观点之间的对话。' }] });
    expect(JSON.stringify(p)).not.toMatch(/italic/);
    expect(kinds(report, 0)).toContain('missing_image');
  });
});

describe('planDeck: what a model writes', () => {
  it('drops blank bullets; the sub-points of a blank bullet become points, not children of the one before', () => {
    const { plan: p } = plan({ title: 'x', slides: [{ layout: 'bullets', title: 'Blank', bullets: ['First point', '   ', { text: ' \u200B', sub: ['Orphan sub', ' '] }, { text: 'Last', sub: ['', 'kept sub'] }] }] });
    const paras = p.slides[0]?.elements.filter((e): e is TextElement => e.kind === 'text' && e.role === 'body').flatMap((e) => e.paragraphs) ?? [];
    expect(paras.map((q) => [q.text, q.level])).toEqual([['First point', 0], ['Orphan sub', 0], ['Last', 0], ['kept sub', 1]]);
  });

  it('sets one gap between Chinese and Latin (LibreOffice\'s), not a typed space beside it; names that refer to each other still match', () => {
    const { plan: p } = plan({ title: '报告 Report', footer: 'Folio Lab · 组会', language: 'zh-CN', slides: [
      { layout: 'bullets', title: '研究背景 Background', bullets: ['基于 Transformer 的方法', { text: '超过 300 万篇', sub: ['引用 (no citations)'] }], notes: '约 20 分钟' },
      { layout: 'chart', title: '结果', chart: { type: 'column', categories: ['基线 A', '本文 方法'], highlight: '基线 A', series: [{ name: '准确率 %', values: [1, 2] }] } },
    ] });
    const texts = p.slides.flatMap((s) => s.elements.flatMap((e) => (e.kind === 'text' ? e.paragraphs.map((q) => q.text) : [])));
    expect(texts).toEqual(expect.arrayContaining(['研究背景Background', '基于Transformer的方法', '超过300万篇', '引用(no citations)', 'Folio Lab ·组会']));
    expect(texts.filter((t) => /[\p{Script=Han}] [A-Za-z0-9(]|[A-Za-z0-9)] \p{Script=Han}/u.test(t))).toEqual([]);
    const chart = p.slides[1]?.elements.find((e) => e.kind === 'chart');
    expect(chart?.kind === 'chart' && chart.categories).toEqual(['基线A', '本文 方法']);
    expect(chart?.kind === 'chart' && chart.series[0]?.pointColors?.[0]).not.toBe(chart?.kind === 'chart' && chart.series[0]?.pointColors?.[1]);
    expect(p.slides[0]?.notes).toContain('约 20 分钟');
  });

  it('reports "\uFFFD" in a table (text read in the wrong encoding) once per slide, with where it is', () => {
    const { report } = plan({ title: 'x', slides: [
      { layout: 'table', title: 'Sites', table: { header: ['Site', 'Note'], rows: [['Zürich', 'Z\uFFFD\uFFFDrich station'], ['Bern', 'ok \uFFFD']] } },
      { layout: 'bullets', title: 'Clean', bullets: ['nothing lost here'] },
    ] });
    const garbled = report.slides[0]?.issues.filter((i) => i.kind === 'garbled_text') ?? [];
    expect(garbled).toHaveLength(1);
    expect(garbled[0]?.message).toContain('2 texts');
    expect(garbled[0]?.message).toContain('"Z\uFFFD\uFFFDrich statio…"');
    expect(kinds(report, 1)).not.toContain('garbled_text');
  });

  it('draws a chart of zeros as a visible placeholder and reports it; the other slides are planned as usual', () => {
    const { plan: p, report } = plan({ title: 'x', slides: [
      { layout: 'chart', title: 'Nothing', chart: { type: 'pie', categories: ['a', 'b'], series: [{ name: 's', values: [0, 0] }] } },
      { layout: 'chart', title: 'Some', chart: { type: 'column', categories: ['a', 'b'], series: [{ name: 'real', values: [1, 2] }, { name: 'zero', values: [0, 0] }] } },
      { layout: 'bullets', title: 'After', bullets: ['still here'] },
    ] });
    expect(p.slides).toHaveLength(3);
    expect(p.slides[0]?.elements.some((e) => e.kind === 'chart')).toBe(false);
    expect(p.slides[0]?.elements.find((e) => e.id === 'chart-placeholder-label')).toMatchObject({ kind: 'text' });
    expect(kinds(report, 0)).toContain('placeholder');
    const chart = p.slides[1]?.elements.find((e) => e.kind === 'chart');
    expect(chart?.kind === 'chart' && chart.series.map((x) => x.name)).toEqual(['real']);
    expect(kinds(report, 1)).toContain('hidden_series');
  });

  it('reports a repeated kind once per slide: five timeline titles shrunk by a point are one finding', () => {
    const long = 'A considerably longer event title that needs a smaller size';
    const { report } = plan({ title: 'x', slides: [{ layout: 'timeline', title: 'T', events: Array.from({ length: 6 }, (_, i) => ({ date: `20${10 + i}`, title: `${long} ${i}` })) }] });
    const shrunk = report.slides[0]?.issues.filter((i) => i.kind === 'shrunk') ?? [];
    expect(shrunk.length).toBeLessThanOrEqual(1);
    const all = report.slides[0]?.issues.map((i) => i.kind) ?? [];
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('planDeck: never cut a phrase, never a lonely continuation', () => {
  const bodyParas = (p: DeckPlan, n: number): TextElement['paragraphs'] =>
    p.slides[n]?.elements.filter((e): e is TextElement => e.kind === 'text' && e.role === 'body').flatMap((e) => e.paragraphs) ?? [];

  it('splits five bullets with three sub-bullets each 3 + 2 at a slightly smaller size rather than 2 + 2 + 1', () => {
    const sub = 'A supporting detail';
    const { plan: p, report } = plan({ title: 'x', slides: [{ layout: 'bullets', title: 'Five with subs', bullets: Array.from({ length: 5 }, (_, i) => ({ text: `Point ${i + 1} states its claim plainly`, sub: [sub, sub, sub] })) }] });
    const tops = p.slides.map((_, n) => bodyParas(p, n).filter((q) => q.level === 0));
    expect(tops.map((t) => t.length)).toEqual([3, 2]);
    for (const t of tops) for (const q of t) expect(q.sizePt).toBeGreaterThanOrEqual(BODY_FLOOR_PT);
    expect(report.slides[0]?.issues.find((i) => i.kind === 'split')?.message).toMatch(/\(3 \+ 2\)/);
  });

  it('never cuts a long bullet with "…" mid-phrase: without a short first sentence it stays whole and the list splits', () => {
    const long = 'a long point that keeps going without any sentence end because the model wrote it as one breathless clause about heat islands and their many causes and effects in every district';
    const { plan: p, report } = plan({ title: 'x', slides: [{ layout: 'bullets', title: 'Long', bullets: Array.from({ length: 6 }, (_, i) => `${i + 1} ${long}`) }] });
    const texts = p.slides.flatMap((_, n) => bodyParas(p, n).map((q) => q.text));
    expect(texts.some((t) => t.includes('…'))).toBe(false);
    expect(texts).toHaveLength(6);
    expect(kinds(report, 0)).not.toContain('dropped');
    expect(kinds(report, 0)).toContain('split');
  });
});

describe('the title slide\'s byline', () => {
  it('types no space where Chinese meets the dot (LibreOffice sets its own gap there) and matches the other side', () => {
    expect(joinByline(['Ada Lovelace', '2026'])).toBe('Ada Lovelace  ·  2026');
    expect(joinByline(['Folio 测试组', '2026'])).toBe('Folio 测试组· 2026');
    expect(joinByline(['张三', '二〇二六年'])).toBe('张三·二〇二六年');
    expect(joinByline([undefined, '2026'])).toBe('2026');
  });
});

describe('report', () => {
  it('merges shrunk messages that share a range, and joins other repeats', () => {
    expect(mergeRepeatedIssues([
      { kind: 'shrunk', message: shrunkMessage('event 1 title', 24, 23) },
      { kind: 'shrunk', message: shrunkMessage('event 2 title', 24, 23) },
      { kind: 'shrunk', message: shrunkMessage('date 1', 20, 18) },
      { kind: 'split', message: 'a' },
      { kind: 'split', message: 'b' },
    ])).toEqual([
      { kind: 'shrunk', message: 'event 1 title, event 2 title shrunk from 24 to 23 pt; date 1 shrunk from 20 to 18 pt to fit' },
      { kind: 'split', message: 'a; b' },
    ]);
  });

  it('asks WCAG 3:1 of large text (18 pt, or 14 pt bold) and 4.5:1 of the rest', () => {
    // This orange on white is 3.27:1.
    const issuesAt = (size: number, bold: boolean): number => {
      const b = new ReportBuilder();
      b.begin(0).checkContrast('t', 'D9731F', 'FFFFFF', { sizePt: size, bold });
      return b.build(1).summary.issues;
    };
    expect(issuesAt(28, false)).toBe(0);
    expect(issuesAt(14, true)).toBe(0);
    expect(issuesAt(16, false)).toBe(1);
    const b = new ReportBuilder();
    b.begin(0).checkContrast('t', 'D9731F', 'FFFFFF');
    expect(b.build(1).slides[0]?.issues[0]?.message).toMatch(/needs 4\.5:1/);
  });
});

describe('emoji that print blank', () => {
  /** An emoji face with colour bitmaps only, as Noto Color Emoji is to LibreOffice's PDF. */
  class BitmapEmoji extends TableMeasurer {
    constructor() {
      super(() => 'Noto Color Emoji');
    }
    override blankEmoji(sequences: readonly string[]): { emoji: string; reason: 'missing' | 'bitmap' }[] {
      return [...new Set(sequences)].map((emoji) => ({ emoji, reason: 'bitmap' as const }));
    }
  }

  it('are reported on the slide that draws them: the deck title on the cover, the footer on content slides', () => {
    const spec = validateDeckSpec({ title: 'Launch day 🚀', footer: 'Team 🎉', slides: [{ layout: 'title' }, { layout: 'bullets', title: 'Plan', bullets: ['Ship it'] }, { layout: 'closing' }] });
    if (!spec.ok) throw new Error(spec.errors.join('; '));
    const theme = findTheme('business');
    if (!theme) throw new Error('no business theme');
    const { report } = planDeck(spec.spec, { theme, measurer: new BitmapEmoji(), size: slideSize('16:9'), language: 'en', baseDir });
    const emoji = (i: number): string => report.slides[i]?.issues.find((x) => x.kind === 'emoji_font')?.message ?? '';
    expect(emoji(0)).toMatch(/^🚀: Noto Color Emoji has them only as colour bitmaps/);
    expect(emoji(1)).toMatch(/^🎉: /);
    expect(emoji(2)).toBe('');
  });
});

describe('planToVerifyInput', () => {
  it('numbers slides as in the file and gives each box its role and text', () => {
    const { plan: p } = plan({ title: 'x', footer: 'Lab', slides: [{ layout: 'title' }, { layout: 'bullets', title: 'Hello', bullets: ['a b c'] }] });
    const slides = planToVerifyInput(p);
    expect(slides.map((s) => [s.number, s.sourceIndex])).toEqual([[1, 0], [2, 1]]);
    const boxes = slides[1]?.boxes ?? [];
    expect(boxes.find((b) => b.role === 'title')?.text).toBe('Hello');
    expect(boxes.find((b) => b.role === 'body')?.text).toBe('a b c');
    expect(boxes.find((b) => b.role === 'footer')?.text).toBe('Lab');
    expect(boxes.find((b) => b.role === 'number')?.text).toBe('2');
  });
});
