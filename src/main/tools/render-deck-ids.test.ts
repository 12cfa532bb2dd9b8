// render_deck and slide ids: slides without one get the next free sN, written back into the spec
// file (only ids added), and the sidecar records where the version came from and a hash per slide.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArtifactPreview } from '../../shared/contract/methods';
import { previewSidecarPath } from '../renderers/artifact-preview';
import { SOFFICE_ENV } from '../renderers/soffice';
import { createRenderDeckTool } from './render-deck-tool';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';
import { type ToolContext } from './types';

const tool = createRenderDeckTool();
const saved = process.env[SOFFICE_ENV];

function deckPreview(root: string, rel: string) {
  const parsed = ArtifactPreview.parse({ ...(JSON.parse(readFileSync(previewSidecarPath(join(root, rel)), 'utf8')) as object), path: rel });
  if (parsed.kind !== 'deck') throw new Error('not a deck');
  return parsed;
}

describe('render_deck slide ids', () => {
  let root: string;
  let ctx: ToolContext;
  beforeEach(() => {
    root = makeTempRoot('folio-deck-ids-');
    ctx = contextFor(root);
    process.env[SOFFICE_ENV] = join(root, 'no-such-soffice');
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[SOFFICE_ENV];
    else process.env[SOFFICE_ENV] = saved;
    removeTemp(root);
  });

  it('gives slides without an id the next free sN and writes only the ids into the spec file', async () => {
    const spec = {
      title: 'Ids',
      slides: [
        { layout: 'title' },
        { id: 'intro', layout: 'bullets', title: 'Why', bullets: ['a', 'b'], notes: 'say why' },
        { layout: 'closing' },
      ],
    };
    writeFiles(root, { 'work/deck.json': JSON.stringify(spec) });
    const first = await tool.execute({ spec_path: 'work/deck.json' }, ctx);
    expect(first.isError).toBeUndefined();
    expect(first.content).toContain('Slide ids added to work/deck.json: slides[0] s1, slides[2] s2. Keep them when you edit the spec.');
    expect(first.touched).toEqual(['artifacts/ids.pptx', 'work/deck.json']);
    const written = JSON.parse(readFileSync(join(root, 'work/deck.json'), 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({ ...spec, slides: [{ id: 's1', layout: 'title' }, spec.slides[1], { id: 's2', layout: 'closing' }] });

    // The sidecar: the spec as rendered (with ids), where it came from, one hash per slide; the plan's slides carry their ids.
    const preview = deckPreview(root, 'artifacts/ids.pptx');
    expect(preview.spec.slides.map((s) => s.id)).toEqual(['s1', 'intro', 's2']);
    expect(preview.version?.spec_path).toBe('work/deck.json');
    expect(preview.version?.slides.map((s) => s.id)).toEqual(['s1', 'intro', 's2']);
    expect(preview.plan?.slides.map((s) => s.slide_id)).toEqual(['s1', 'intro', 's2']);

    // Rendering the same file again changes nothing in it and nothing on the slides.
    const before = readFileSync(join(root, 'work/deck.json'), 'utf8');
    const second = await tool.execute({ spec_path: 'work/deck.json' }, ctx);
    expect(second.touched).toEqual(['artifacts/ids-v2.pptx']);
    expect(second.content).not.toContain('Slide ids');
    expect(second.content).toContain('Version 2 of this deck, compared with the previous version: 3 slides unchanged.');
    expect(readFileSync(join(root, 'work/deck.json'), 'utf8')).toBe(before);
    expect(deckPreview(root, 'artifacts/ids-v2.pptx').version?.slides).toEqual(preview.version?.slides);
  });

  it('tells the model the ids it gave an inline spec, which it cannot write back', async () => {
    const result = await tool.execute({ spec: { title: 'Inline', slides: [{ layout: 'title' }, { layout: 'closing' }] } }, ctx);
    expect(result.content).toContain('Slides without an id were given: slides[0] s1, slides[1] s2. Put these ids in the spec when you render it again.');
    expect(result.touched).toEqual(['artifacts/inline.pptx']);
    expect(deckPreview(root, 'artifacts/inline.pptx').version?.spec_path).toBeNull();
  });

  it('refuses duplicate ids, naming both slides', async () => {
    const result = await tool.execute({ spec: { title: 'Dup', slides: [{ id: 'a', layout: 'title' }, { id: 'a', layout: 'closing' }] } }, ctx).catch((e: Error) => ({ content: e.message }));
    expect(result.content).toContain('slides[1].id: "a" is also the id of slides[0]; slide ids must be unique');
  });
});
