import { describe, expect, it } from 'vitest';
import { validateDeckSpec } from './deck';
import { assignSlideIds, slideKey } from './slide-ids';

describe('assignSlideIds', () => {
  it('numbers a spec without ids s1, s2, ... in order', () => {
    expect(assignSlideIds([undefined, undefined, undefined])).toEqual({ ids: ['s1', 's2', 's3'], assigned: [0, 1, 2] });
  });

  it('keeps given ids and numbers new slides on from the highest sN, never reusing one', () => {
    // s2 was deleted and a slide inserted between s1 and s3: it becomes s5, not s2.
    expect(assignSlideIds(['s1', undefined, 's3', 's4'])).toEqual({ ids: ['s1', 's5', 's3', 's4'], assigned: [1] });
    expect(assignSlideIds(['intro', undefined, 'results'])).toEqual({ ids: ['intro', 's1', 'results'], assigned: [1] });
  });

  it('is deterministic', () => {
    const input = [undefined, 'x', undefined, 's7', undefined];
    expect(assignSlideIds(input)).toEqual(assignSlideIds(input));
    expect(assignSlideIds(input).ids).toEqual(['s8', 'x', 's9', 's7', 's10']);
  });

  it('continuation keys never collide with ids', () => {
    expect(slideKey('s3', 0)).toBe('s3');
    expect(slideKey('s3', 1)).toBe('s3.2');
  });
});

describe('slide ids in the spec', () => {
  const spec = (ids: (string | undefined)[]) => ({ title: 'T', slides: ids.map((id) => ({ layout: 'section', title: 'S', ...(id ? { id } : {}) })) });

  it('accepts slides with and without ids', () => {
    const r = validateDeckSpec(spec(['intro', undefined]));
    expect(r.ok && r.spec.slides.map((s) => s.id)).toEqual(['intro', undefined]);
  });

  it('rejects a duplicate id, naming both slides', () => {
    const r = validateDeckSpec(spec(['s1', 's2', 's1']));
    expect(r.ok ? [] : r.errors).toEqual(['slides[2].id: "s1" is also the id of slides[0]; slide ids must be unique']);
  });

  it('rejects an id that is not a plain lower-case name', () => {
    const r = validateDeckSpec(spec(['Slide 1']));
    expect(r.ok ? '' : r.errors.join()).toMatch(/^slides\[0\]\.id: slide ids are/);
  });
});
