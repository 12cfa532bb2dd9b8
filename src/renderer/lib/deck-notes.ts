// A slide's speaker notes, split into what the spec wrote and what the planner moved off the slide
// to keep it readable (long points shortened on the slide, points cut at the size floor): the plan
// stores them as one text, the spec's notes first, then each moved text, separated by blank lines.
import type { DeckSpec } from '../../shared/specs/deck';
import type { PlannedSlide } from '../../shared/specs/deck-plan';

export interface SlideNotes {
  /** The notes the spec gave this slide (only its first output slide carries them). */
  own: string;
  /** Text the planner moved off the slide, in full. */
  moved: string;
}

export function slideNotes(spec: DeckSpec, slide: Pick<PlannedSlide, 'source_index' | 'part' | 'notes'>): SlideNotes {
  const all = slide.notes ?? '';
  const specNotes = slide.part === 0 ? (spec.slides[slide.source_index]?.notes ?? '') : '';
  if (specNotes.trim() === '') return { own: '', moved: all.trim() };
  if (!all.startsWith(specNotes)) return { own: all.trim(), moved: '' };
  return { own: specNotes.trim(), moved: all.slice(specNotes.length).trim() };
}
