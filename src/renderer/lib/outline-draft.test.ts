import { describe, expect, it } from 'vitest';
import type { DeckOutline } from '../../shared/specs/deck-outline';
import { checkDraft, draftFromOutline, newDraftRow, toRowInputs } from './outline-draft';

const outline: DeckOutline = {
  status: 'proposed',
  approved_at: null,
  updated_at: 1,
  slides: [
    { id: 's1', title: 'Cities run hotter', layout: 'title', points: [], sources: [] },
    { id: 's2', title: 'Green space cools', layout: 'bullets', points: ['+10% cover', '-0.8 °C'], sources: [{ file: 'source/heat.pdf', pages: '2' }] },
  ],
};

describe('the outline draft', () => {
  it('round-trips an outline: points one per line, sources with optional pages, ids kept', () => {
    const draft = draftFromOutline(outline);
    expect(draft[1]).toMatchObject({ id: 's2', points: '+10% cover\n-0.8 °C', sources: [{ file: 'source/heat.pdf', pages: '2' }] });
    expect(new Set(draft.map((r) => r.key)).size).toBe(2);
    expect(toRowInputs(draft)).toEqual(outline.slides);
  });

  it('drops blank point lines and sources without a file; a new row has no id', () => {
    const row = { ...newDraftRow('chart'), title: '  Costs fell  ', points: 'a\n\n  b  \n', sources: [{ file: '', pages: '3' }, { file: 'source/x.pdf', pages: ' ' }] };
    expect(toRowInputs([row])).toEqual([{ title: 'Costs fell', layout: 'chart', points: ['a', 'b'], sources: [{ file: 'source/x.pdf' }] }]);
  });

  it('groups the schema’s complaints by row for the editor', () => {
    const draft = draftFromOutline(outline);
    const broken = [draft[0], { ...draft[1], title: ' ', sources: [{ file: 'source/heat.pdf', pages: 'two' }] }];
    const check = checkDraft(broken);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect([...check.byRow.keys()]).toEqual([1]);
    expect(check.byRow.get(1)).toEqual(['title: must not be empty', expect.stringMatching(/^sources\.0\.pages: pages are numbers/u)]);
    expect(checkDraft([]).ok).toBe(false);
    expect(checkDraft(draft).ok).toBe(true);
  });
});
