// Selecting slides in a deck's preview, and the bar that asks for a change to them.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import type { DeckPlan, PlannedSlide } from '../../../shared/specs/deck-plan';

import { SlideChangeBar } from './SlideChangeBar';
import { nextSelection, selectableSlides } from './slide-selection';

const slide = (source_index: number, part: number, slide_id?: string): PlannedSlide => ({ source_index, part, master: 'content', background: 'FFFFFF', elements: [], ...(slide_id ? { slide_id } : {}) });
const plan: DeckPlan = { size: { w: 13.333, h: 7.5 }, theme: 'academic', metrics: 'font', slides: [slide(0, 0, 's1'), slide(1, 0, 's2'), slide(1, 1, 's2'), slide(2, 0, 's3'), slide(3, 0, 's4')] };
const order = ['s1', 's2', 's3', 's4'];

describe('slide selection', () => {
  it('one entry per spec slide, numbered by its first slide in the file (continuations select their slide)', () => {
    expect(selectableSlides(plan)).toEqual([
      { id: 's1', number: 1 },
      { id: 's2', number: 2 },
      { id: 's3', number: 4 },
      { id: 's4', number: 5 },
    ]);
    // Plans drawn before slides had ids offer nothing to select.
    expect(selectableSlides({ ...plan, slides: [slide(0, 0)] })).toEqual([]);
  });

  it('toggles, and selects a range from the last slide clicked, in file order', () => {
    expect(nextSelection([], order, 's3', 'toggle', null)).toEqual(['s3']);
    expect(nextSelection(['s3'], order, 's1', 'toggle', 's3')).toEqual(['s1', 's3']);
    expect(nextSelection(['s1', 's3'], order, 's3', 'toggle', 's1')).toEqual(['s1']);
    expect(nextSelection(['s4'], order, 's2', 'range', 's4')).toEqual(['s2', 's3', 's4']);
    // No anchor yet: shift-click selects just that slide.
    expect(nextSelection([], order, 's2', 'range', null)).toEqual(['s2']);
  });
});

describe('SlideChangeBar', () => {
  useUiLanguage();

  it('names the selected slides and cannot send an empty instruction', () => {
    const html = renderToStaticMarkup(
      <SlideChangeBar path="artifacts/d.pptx" specPath="work/d.json" slides={[{ id: 's3', number: 4 }, { id: 's4', number: 5 }]} onClear={() => undefined} />,
    );
    expect(html).toContain('Change 2 slides: Slide 4, Slide 5');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*data-testid="slide-change-send"/);
  });
});
