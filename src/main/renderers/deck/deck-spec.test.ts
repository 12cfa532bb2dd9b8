import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  containsCjk,
  continuationTitle,
  countWords,
  deckJsonSchema,
  type DeckSpecInput,
  splitRunsByScript,
  validateDeckSpec,
} from '../../../shared/specs/deck';

const samplePath = fileURLToPath(new URL('../../../../samples/deck-zh-talk/deck.json', import.meta.url));

function deck(slides: unknown[], extra: Record<string, unknown> = {}): unknown {
  return { title: 'Test deck', slides, ...extra };
}

function errorsOf(input: unknown): string[] {
  const r = validateDeckSpec(input);
  if (r.ok) throw new Error('expected the spec to be invalid');
  return r.errors;
}

describe('validateDeckSpec: good specs', () => {
  it('accepts the Chinese sample talk and fills defaults', () => {
    const r = validateDeckSpec(JSON.parse(readFileSync(samplePath, 'utf8')));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.spec.slides).toHaveLength(12);
  });

  it('defaults theme to academic and aspect to 16:9', () => {
    const r = validateDeckSpec(deck([{ layout: 'title' }]));
    expect(r.ok && r.spec.theme).toBe('academic');
    expect(r.ok && r.spec.aspect).toBe('16:9');
  });

  it('accepts every layout', () => {
    const spec: DeckSpecInput = {
      title: 'All layouts',
      slides: [
        { layout: 'title' },
        { layout: 'section', title: 'Part 1' },
        { layout: 'bullets', title: 'B', bullets: ['one', { text: 'two', sub: ['a', 'b'] }] },
        { layout: 'two_column', title: 'T', left: { text: 'x' }, right: { image: 'img/a.png', caption: 'c' } },
        { layout: 'image', title: 'I', image: 'a.png' },
        { layout: 'chart', title: 'C', chart: { type: 'pie', categories: ['a', 'b'], series: [{ name: 's', values: [1, 2] }] } },
        { layout: 'table', title: 'T', table: { header: ['a', 'b'], rows: [['1', '2']] } },
        { layout: 'quote', quote: 'q', by: 'me' },
        { layout: 'closing' },
      ],
    };
    expect(validateDeckSpec(spec)).toMatchObject({ ok: true });
  });
});

describe('validateDeckSpec: each bad class names the field', () => {
  it('wrong series length', () => {
    const errors = errorsOf(
      deck([
        { layout: 'title' },
        { layout: 'title' },
        { layout: 'title' },
        { layout: 'title' },
        {
          layout: 'chart',
          title: 'C',
          chart: {
            type: 'bar',
            categories: ['a', 'b', 'c', 'd', 'e', 'f'],
            series: [
              { name: 'ok', values: [1, 2, 3, 4, 5, 6] },
              { name: 'short', values: [1, 2, 3, 4, 5] },
            ],
          },
        },
      ]),
    );
    expect(errors).toContain('slides[4].chart.series[1].values: expected 6 numbers, got 5');
  });

  it('unknown layout lists the layouts', () => {
    const [err] = errorsOf(deck([{ layout: 'title' }, { layout: 'gantt', title: 'x' }]));
    expect(err).toMatch(/^slides\[1\]\.layout: unknown layout "gantt"/);
    expect(err).toContain('bullets');
    expect(err).toContain('two_column');
  });

  it('table row width mismatch', () => {
    const errors = errorsOf(deck([{ layout: 'table', title: 'T', table: { header: ['a', 'b', 'c'], rows: [['1', '2', '3'], ['1', '2']] } }]));
    expect(errors).toContain('slides[0].table.rows[1]: expected 3 cells (one per header), got 2');
  });

  it('bullets slide without a title', () => {
    expect(errorsOf(deck([{ layout: 'bullets', bullets: ['x'] }]))).toContain('slides[0].title: required');
  });

  it('absolute image path', () => {
    const errors = errorsOf(deck([{ layout: 'image', title: 'I', image: '/etc/passwd' }]));
    expect(errors.join('\n')).toMatch(/slides\[0\]\.image: must be relative/);
  });

  it('image path with ..', () => {
    const errors = errorsOf(deck([{ layout: 'two_column', title: 'T', left: { image: 'a/../../b.png' }, right: { text: 'x' } }]));
    expect(errors.join('\n')).toMatch(/slides\[0\]\.left\.image: must not contain "\.\."/);
  });

  it('Windows drive path and URL', () => {
    expect(errorsOf(deck([{ layout: 'image', title: 'I', image: 'C:\\x.png' }])).join()).toMatch(/slides\[0\]\.image/);
    expect(errorsOf(deck([{ layout: 'image', title: 'I', image: 'https://x/y.png' }])).join()).toMatch(/not a URL/);
  });

  it('unknown field (strict objects)', () => {
    const errors = errorsOf(deck([{ layout: 'bullets', title: 'B', bullets: [], colour: 'red' }]));
    expect(errors).toContain('slides[0]: unknown field(s) "colour"');
  });

  it('bad sub-bullet names its path, not just "invalid input"', () => {
    const errors = errorsOf(deck([{ layout: 'bullets', title: 'B', bullets: ['ok', { text: 'x', sub: ['a', 3] }] }]));
    expect(errors.join('\n')).toMatch(/slides\[0\]\.bullets\[1\]\.sub\[1\]/);
  });

  it('two_column side with two kinds of content', () => {
    const errors = errorsOf(deck([{ layout: 'two_column', title: 'T', left: { text: 'a', bullets: ['b'] }, right: { text: 'c' } }]));
    expect(errors.join('\n')).toMatch(/slides\[0\]\.left: expected only one of bullets, image, text/);
  });

  it('pie with two series, empty deck, non-object', () => {
    const pie = { layout: 'chart', title: 'P', chart: { type: 'pie', categories: ['a'], series: [{ name: 'x', values: [1] }, { name: 'y', values: [2] }] } };
    expect(errorsOf(deck([pie])).join()).toMatch(/slides\[0\]\.chart\.series: a pie chart shows exactly one series/);
    expect(errorsOf(deck([])).join()).toMatch(/slides: a deck needs at least one slide/);
    expect(errorsOf('nope').length).toBeGreaterThan(0);
  });
});

describe('deckJsonSchema', () => {
  it('is valid JSON describing the spec', () => {
    const schema = deckJsonSchema();
    const roundTrip = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
    expect(roundTrip).toEqual(schema);
    expect(String(roundTrip.$schema)).toMatch(/json-schema\.org/);
    expect(roundTrip.type).toBe('object');
    expect(roundTrip.required).toEqual(expect.arrayContaining(['title', 'slides']));
    const text = JSON.stringify(schema);
    for (const layout of ['title', 'two_column', 'chart', 'closing']) expect(text).toContain(`"${layout}"`);
  });
});

describe('script runs and word counts', () => {
  it('splits mixed text by script and keeps every character', () => {
    const text = '使用 GPT-4 模型，准确率 86.9%（“高”）';
    const runs = splitRunsByScript(text);
    expect(runs.map((r) => r.text).join('')).toBe(text);
    expect(runs.map((r) => r.cjk)).toEqual([true, false, true, false, true]);
    expect(runs[1]?.text).toBe('GPT-4 ');
  });

  it('treats kana, hangul and fullwidth forms as CJK', () => {
    expect(containsCjk('カタカナ')).toBe(true);
    expect(containsCjk('한국어')).toBe(true);
    expect(containsCjk('ＡＢＣ')).toBe(true);
    expect(containsCjk('plain — “text”')).toBe(false);
  });

  it('counts Latin words and CJK characters / 2', () => {
    expect(countWords('the quick brown fox')).toBe(4);
    expect(countWords('大语言模型')).toBe(3);
    expect(countWords('使用 GPT-4 模型')).toBe(3);
  });

  it('titles continuation slides by language', () => {
    expect(continuationTitle('Results', 'en')).toBe('Results (cont.)');
    expect(continuationTitle('结果', 'zh-CN')).toBe('结果（续）');
  });
});
