import { describe, expect, it } from 'vitest';
import { assignOutlineIds, DeckOutline, MAX_OUTLINE_POINTS, OutlineRowsInput } from './deck-outline';

const row = (extra: Record<string, unknown> = {}) => ({ title: 'Green space cools the city by 0.8 °C', layout: 'bullets', ...extra });

function errors(input: unknown): string[] {
  const parsed = OutlineRowsInput.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('the outline rows', () => {
  it('accepts rows with and without ids, filling points and sources with empty lists', () => {
    const parsed = OutlineRowsInput.parse([row({ id: 'intro', points: ['12 stations'], sources: [{ file: 'source/heat.pdf', pages: '1-2, 5' }] }), row()]);
    expect(parsed[0]).toEqual({ id: 'intro', title: 'Green space cools the city by 0.8 °C', layout: 'bullets', points: ['12 stations'], sources: [{ file: 'source/heat.pdf', pages: '1-2, 5' }] });
    expect(parsed[1]).toMatchObject({ points: [], sources: [] });
    expect(parsed[1].id).toBeUndefined();
  });

  it('names what is wrong: layout, empty title, duplicate id, id shape, pages, paths, too many points, no rows', () => {
    expect(errors([row({ layout: 'slideshow' })])[0]).toMatch(/^0\.layout: /u);
    expect(errors([row({ title: '   ' })])).toEqual(['0.title: must not be empty']);
    expect(errors([row({ id: 'a' }), row({ id: 'b' }), row({ id: 'a' })])).toEqual(['2.id: duplicate id "a" (also slides[0])']);
    expect(errors([row({ id: 'Intro Slide' })])[0]).toMatch(/^0\.id: slide ids are/u);
    expect(errors([row({ sources: [{ file: 'source/a.pdf', pages: 'three' }] })])[0]).toMatch(/^0\.sources\.0\.pages: pages are numbers/u);
    expect(errors([row({ sources: [{ file: '../secret.pdf' }] })])[0]).toMatch(/^0\.sources\.0\.file: must not contain/u);
    expect(errors([row({ points: Array.from({ length: MAX_OUTLINE_POINTS + 1 }, (_, i) => `p${i}`) })])[0]).toMatch(/^0\.points: at most 6 key points/u);
    expect(errors([row({ notes: 'x' })])[0]).toMatch(/^0: .*notes/u);
    expect(errors([])).toEqual([': an outline needs at least one slide']);
  });

  it('keeps given ids and numbers new rows after the highest, as the spec does, so a deleted id is never reused', () => {
    const rows = OutlineRowsInput.parse([row(), row({ id: 's1' }), row(), row({ id: 's3' }), row()]);
    expect(assignOutlineIds(rows).map((r) => r.id)).toEqual(['s4', 's1', 's5', 's3', 's6']);
  });

  it('a stored outline needs its ids, status and unique rows', () => {
    const slides = assignOutlineIds(OutlineRowsInput.parse([row(), row()]));
    expect(DeckOutline.safeParse({ status: 'approved', approved_at: 1, updated_at: 1, slides }).success).toBe(true);
    expect(DeckOutline.safeParse({ status: 'approved', approved_at: 1, updated_at: 1, slides: [slides[0], slides[0]] }).success).toBe(false);
    expect(DeckOutline.safeParse({ status: 'done', approved_at: null, updated_at: 1, slides }).success).toBe(false);
    expect(DeckOutline.safeParse({ status: 'proposed', approved_at: null, updated_at: 1, slides: [{ ...slides[0], id: undefined }] }).success).toBe(false);
  });
});
