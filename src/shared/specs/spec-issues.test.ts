// A deck spec's problems as data beside the English lines the model reads: where, and what kind.
import { describe, expect, it } from 'vitest';
import { validateDeckSpec } from './deck';

describe('deck spec issues', () => {
  it('name each problem by its path and kind, one for each English line', () => {
    const checked = validateDeckSpec({ title: 'x', colour: 'red', slides: [{ layout: 'gantt' }, { layout: 'bullets', bullets: ['a'] }, { layout: 'bullets', title: '', bullets: 3 }] });
    if (checked.ok) throw new Error('the spec should fail');
    expect(checked.issues).toEqual([
      { path: 'slides[0].layout', problem: 'unknown_layout', value: '"gantt"' },
      { path: 'slides[1].title', problem: 'missing' },
      { path: 'slides[2].title', problem: 'too_short' },
      { path: 'slides[2].bullets', problem: 'wrong_type' },
      { path: '', problem: 'unknown_fields', value: 'colour' },
    ]);
    expect(checked.errors).toHaveLength(checked.issues.length);
    expect(checked.errors[1]).toBe('slides[1].title: required');
  });
});
