import { describe, expect, it } from 'vitest';
import { type DeckSpec, validateDeckSpec } from '../../shared/specs/deck';
import { slideNotes } from './deck-notes';

const checked = validateDeckSpec({
  title: 'T',
  slides: [
    { layout: 'bullets', title: 'Long', bullets: ['a'], notes: 'Say why it matters.' },
    { layout: 'bullets', title: 'No notes', bullets: ['b'] },
  ],
});
if (!checked.ok) throw new Error(checked.errors.join('; '));
const spec: DeckSpec = checked.spec;

describe('slideNotes', () => {
  it("separates the spec's notes from the text the planner moved off the slide", () => {
    expect(slideNotes(spec, { source_index: 0, part: 0, notes: 'Say why it matters.\n\nThe full text of a long point.\n\nA cut point.' })).toEqual({
      own: 'Say why it matters.',
      moved: 'The full text of a long point.\n\nA cut point.',
    });
    expect(slideNotes(spec, { source_index: 0, part: 0, notes: 'Say why it matters.' })).toEqual({ own: 'Say why it matters.', moved: '' });
  });

  it("gives continuation slides and slides without spec notes only moved text, and missing notes as empty", () => {
    // A continuation never carries the spec's notes: what it has was moved.
    expect(slideNotes(spec, { source_index: 0, part: 1, notes: 'A cut point.' })).toEqual({ own: '', moved: 'A cut point.' });
    expect(slideNotes(spec, { source_index: 1, part: 0, notes: 'Shortened point in full.' })).toEqual({ own: '', moved: 'Shortened point in full.' });
    expect(slideNotes(spec, { source_index: 1, part: 0 })).toEqual({ own: '', moved: '' });
  });

  it('shows notes that do not start with the spec text (an older plan) as the slide\'s own', () => {
    expect(slideNotes(spec, { source_index: 0, part: 0, notes: 'Edited elsewhere.' })).toEqual({ own: 'Edited elsewhere.', moved: '' });
  });
});
