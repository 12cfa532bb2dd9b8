import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type DeckSlide, validateDeckSpec } from '../../../../shared/specs/deck';
import { footerBand, slideSize } from '../../../../shared/specs/deck-geometry';
import { type PlannedSlide, type TextElement } from '../../../../shared/specs/deck-plan';
import { findTheme } from '../../../../shared/specs/themes';
import { tableMeasurer } from '../../typesetting/fonts';
import { planDeck } from './index';

type Timeline = Extract<DeckSlide, { layout: 'timeline' }>;

function plan(slide: Timeline, theme = 'business'): { slides: PlannedSlide[]; issues: { kind: string; message: string }[] } {
  const checked = validateDeckSpec({ title: 'T', theme, slides: [slide] });
  if (!checked.ok) throw new Error(checked.errors.join('; '));
  const t = findTheme(theme);
  if (!t) throw new Error(`no theme ${theme}`);
  const { plan: p, report } = planDeck(checked.spec, { theme: t, measurer: tableMeasurer, size: slideSize('16:9'), language: 'en', baseDir: '.' });
  return { slides: p.slides, issues: report.slides.flatMap((s) => s.issues) };
}

const texts = (slides: readonly PlannedSlide[], role: TextElement['role']): string[] =>
  slides.flatMap((s) => s.elements.filter((e): e is TextElement => e.kind === 'text' && e.role === role).flatMap((e) => e.paragraphs.map((p) => p.text)));

/** Every event title and text on the slides as written: none cut, none missing. */
function expectEveryWord(slides: readonly PlannedSlide[], slide: Timeline): void {
  const shown = [...texts(slides, 'label'), ...texts(slides, 'body')].join('\n');
  expect(shown).not.toContain('…');
  for (const e of slide.events) {
    expect(shown).toContain(e.title);
    if (e.text) expect(shown).toContain(e.text);
  }
  const band = footerBand(slideSize('16:9'));
  for (const s of slides) for (const el of s.elements) if (!(el.kind === 'text' && el.fromMaster)) expect(el.box.y + el.box.h, el.id).toBeLessThanOrEqual(band.y + 1e-6);
}

const edgeDeck = JSON.parse(readFileSync(new URL('../fixtures/edge-deck.json', import.meta.url), 'utf8')) as { slides: DeckSlide[] };
const edgeTimeline = edgeDeck.slides.find((s): s is Timeline => s.layout === 'timeline');

describe('timeline: dates across the slide', () => {
  it('are set at one size that fits every column, so no date is reported shrunk', () => {
    const proposal = JSON.parse(readFileSync(new URL('../fixtures/zh-proposal-defense.json', import.meta.url), 'utf8')) as { slides: DeckSlide[] };
    const timeline = proposal.slides.find((s): s is Timeline => s.layout === 'timeline');
    if (!timeline) throw new Error('the proposal deck has no timeline');
    const { slides, issues } = plan(timeline);
    expect(issues.filter((i) => i.kind === 'shrunk').map((i) => i.message)).toEqual([]);
    const dates = slides.flatMap((sl) => sl.elements.filter((e): e is TextElement => e.kind === 'text' && /^event-\d+-date$/.test(e.id)));
    expect(dates).toHaveLength(6);
    expect(new Set(dates.map((d) => d.paragraphs[0]?.sizePt)).size).toBe(1);
    for (const d of dates) expect(d.lines, d.paragraphs[0]?.text).toBe(1);
  });
});

describe('timeline: long words are set again, never cut', () => {
  it('sets five long event titles down the slide, one event per row, instead of cutting them in five columns', () => {
    if (!edgeTimeline) throw new Error('the edge deck has no timeline');
    const { slides, issues } = plan(edgeTimeline);
    expect(slides).toHaveLength(1);
    expectEveryWord(slides, edgeTimeline);
    expect(issues.map((i) => i.kind)).not.toContain('dropped');
    expect(issues.find((i) => i.kind === 'restructured')?.message).toMatch(/one event per row/);
    // Rows: each date shares its title's top, and the dates stand in one column left of the titles.
    const [slide] = slides;
    const box = (id: string) => slide?.elements.find((e) => e.id === id)?.box;
    for (let i = 1; i <= 5; i++) {
      expect(box(`event-${i}-date`)?.y).toBeCloseTo(box(`event-${i}-title`)?.y ?? -1, 6);
      expect((box(`event-${i}-date`)?.x ?? 0) + (box(`event-${i}-date`)?.w ?? 0)).toBeLessThan(box(`event-${i}-title`)?.x ?? 0);
    }
    expect(box('event-2-title')?.y).toBeGreaterThan(box('event-1-title')?.y ?? Infinity);
  });

  it('keeps short events in columns along the line', () => {
    const slide: Timeline = { layout: 'timeline', title: 'Plan', events: [{ date: '2024', title: 'Pilot' }, { date: '2025', title: 'Launch', text: 'In three regions.' }] };
    const { slides, issues } = plan(slide);
    expectEveryWord(slides, slide);
    expect(issues.map((i) => i.kind)).not.toContain('restructured');
    const boxes = slides[0]?.elements.filter((e) => /^event-\d-title$/.test(e.id)).map((e) => e.box);
    expect(boxes?.[0]?.y).toBeCloseTo(boxes?.[1]?.y ?? -1, 6);
    expect(boxes?.[1]?.x).toBeGreaterThan((boxes?.[0]?.x ?? 0) + (boxes?.[0]?.w ?? 0));
  });

  it('splits six events over two slides when neither columns nor rows hold all their words', () => {
    const text = 'The field team replaces the sensors, checks the readings against the reference station for a month and only then returns the station to the network. '.repeat(2).trim();
    const slide: Timeline = {
      layout: 'timeline',
      title: 'Six steps',
      events: Array.from({ length: 6 }, (_, i) => ({ date: `Q${(i % 4) + 1} 202${i}`, title: `A considerably longer event title for step ${i + 1}`, text })),
    };
    const { slides, issues } = plan(slide);
    expect(slides).toHaveLength(2);
    expectEveryWord(slides, slide);
    expect(issues.map((i) => i.kind)).not.toContain('dropped');
    expect(issues.find((i) => i.kind === 'split')?.message).toMatch(/3 \+ 3/);
    expect(texts(slides.slice(1), 'title')[0]).toBe('Six steps (cont.)');
  });
});
