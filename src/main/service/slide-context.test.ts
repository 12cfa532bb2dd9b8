import { describe, expect, it } from 'vitest';
import { type ArtifactPreview } from '../../shared/contract';
import { validateDeckSpec } from '../../shared/specs/deck';
import { formatSlideRequest } from '../../shared/slide-request';
import { checkSlideContext } from './slide-context';

const checked = validateDeckSpec({ title: 'T', slides: [{ id: 's1', layout: 'title' }, { id: 's2', layout: 'section', title: 'A' }] });
if (!checked.ok) throw new Error(checked.errors.join());
const deck: ArtifactPreview = { kind: 'deck', path: 'artifacts/t.pptx', spec: checked.spec, report: null, plan: null, version: { spec_path: 'work/t.json', slides: [], restored_from: null }, theme: null };

describe('slide context', () => {
  it('names the slides, the spec and the deck, and asks to keep everything else', () => {
    const text = formatSlideRequest({ artifact_path: 'artifacts/t-v2.pptx', spec_path: 'work/t.json', slides: [{ id: 's3', number: 3 }, { id: 's5', number: 6 }] }, '  shorter ');
    expect(text).toBe(
      'Change only slides s3 (slide 3), s5 (slide 6) of work/t.json (rendered as artifacts/t-v2.pptx): shorter\n\n' +
        'Edit only those slides in the spec; keep every other slide and every slide id exactly as it is, then call render_deck with spec_path "work/t.json".',
    );
  });

  it('takes the spec path from the deck and refuses ids the deck does not have', () => {
    const ctx = { artifact_path: 'artifacts/t.pptx', spec_path: 'elsewhere.json', slides: [{ id: 's2', number: 2 }] };
    expect(checkSlideContext(ctx, deck).spec_path).toBe('work/t.json');
    expect(() => checkSlideContext({ ...ctx, slides: [{ id: 's7', number: 7 }] }, deck)).toThrow(/has no slide s7/);
    expect(() => checkSlideContext(ctx, { kind: 'none', path: 'artifacts/t.pptx', reason: 'x' })).toThrow(/not a deck Folio rendered/);
  });
});
