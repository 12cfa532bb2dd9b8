import { describe, expect, it } from 'vitest';
import { type DeckSlide, validateDeckSpec } from '../../../../shared/specs/deck';
import { footerBand, slideSize } from '../../../../shared/specs/deck-geometry';
import { type PlanBox, type PlannedSlide } from '../../../../shared/specs/deck-plan';
import { BUILTIN_THEMES } from '../../../../shared/specs/themes';
import { planDeck } from './index';
import { tableMeasurer } from '../../typesetting/fonts';
import { visualSamples } from './samples';

const measurer = tableMeasurer;
const samples = visualSamples();

function inside(box: PlanBox, outer: PlanBox): boolean {
  const e = 1e-6;
  return box.x >= outer.x - e && box.y >= outer.y - e && box.x + box.w <= outer.x + outer.w + e && box.y + box.h <= outer.y + outer.h + e;
}

function plan(slide: DeckSlide, theme: string): { slides: PlannedSlide[]; issues: string[] } {
  const checked = validateDeckSpec({ title: 'T', theme, slides: [slide] });
  if (!checked.ok) throw new Error(checked.errors.join('; '));
  const t = BUILTIN_THEMES.find((x) => x.name === theme)!;
  const { plan: p, report } = planDeck(checked.spec, { theme: t, measurer, size: slideSize('16:9'), language: 'en', baseDir: '.' });
  return { slides: p.slides, issues: report.slides.flatMap((s) => s.issues.map((i) => `${i.kind}: ${i.message}`)) };
}

const size = slideSize('16:9');
const slideBox = { x: 0, y: 0, w: size.w, h: size.h };
const band = footerBand(size);

describe.each(Object.keys(samples))('%s layout', (layout) => {
  describe.each(BUILTIN_THEMES.map((t) => t.name))('theme %s', (theme) => {
    it.each(['sparse', 'dense'] as const)('%s: every box on the slide and out of the footer band', (density) => {
      const { slides } = plan(samples[layout][density], theme);
      expect(slides).toHaveLength(1);
      const els = slides[0].elements.filter((e) => !(e.kind === 'text' && e.fromMaster));
      expect(els.length).toBeGreaterThan(2);
      for (const el of els) {
        expect(inside(el.box, slideBox), `${el.id} leaves the slide`).toBe(true);
        expect(el.box.y + el.box.h, `${el.id} enters the footer band`).toBeLessThanOrEqual(band.y + 1e-6);
      }
      // No text below the body floor (18 pt on 16:9).
      for (const el of els) if (el.kind === 'text' && el.role !== 'number') for (const para of el.paragraphs) expect(para.sizePt).toBeGreaterThanOrEqual(18);
    });
  });

  it('sparse content is composed in the middle, not pinned under the title', () => {
    const { slides } = plan(samples[layout].sparse, 'academic');
    // The layout's own elements: not the title, its accent mark, or the master's footer and number.
    const content = slides[0].elements.filter((e) => !e.id.startsWith('title') && !e.id.includes('mark') && !(e.kind === 'text' && e.fromMaster));
    const top = Math.min(...content.map((e) => e.box.y));
    const bottom = Math.max(...content.map((e) => e.box.y + e.box.h));
    const title = slides[0].elements.find((e) => e.kind === 'text' && e.role === 'title')!;
    const above = top - (title.box.y + title.box.h);
    const below = band.y - bottom;
    expect(above).toBeGreaterThan(0.4);
    expect(below).toBeGreaterThan(above * 0.8);
  });
});

describe('dense samples report what they gave up', () => {
  it('a cut card text is in the notes and the report', () => {
    const { slides, issues } = plan(samples.cards.dense, 'business');
    expect(issues.join('\n')).toMatch(/dropped|shrunk|cut/);
    expect(slides[0].notes ?? '').toContain('retrieval quality');
  });
});
