import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeckOutline } from '../../shared/specs/deck-outline';
import { SOFFICE_ENV } from '../renderers/soffice';
import { OUTLINE_PATH, readOutlineFile, writeOutline } from '../workspace/outline-file';
import { proposeOutlineTool } from './propose-outline';
import { parseToolArguments, toolSchema } from './registry';
import { createRenderDeckTool } from './render-deck-tool';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';
import { type ToolContext } from './types';

const rows = [
  { title: '城市热岛研究', layout: 'title' },
  { id: 'heat', title: '城区比郊区热二点五度', layout: 'stat', points: ['十二个站点', '夏季午后最大'], sources: [{ file: 'source/heat.pdf', pages: '1' }] },
  { title: '绿地最有效', layout: 'bullets', points: ['覆盖率加一成降温零点八度'], sources: [{ file: 'source/heat.pdf', pages: '2' }] },
];

function parse(args: unknown) {
  const parsed = parseToolArguments(proposeOutlineTool, JSON.stringify(args));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.args as Parameters<typeof proposeOutlineTool.execute>[0];
}

describe('propose_outline', () => {
  let root: string;
  let ctx: ToolContext;
  beforeEach(() => {
    root = makeTempRoot('folio-outline-');
    ctx = contextFor(root);
    writeFiles(root, { 'source/heat.pdf': '%PDF-1.4 stub' });
  });
  afterEach(() => removeTemp(root));

  it('stores work/outline.json as proposed, keeps given ids, assigns the rest, announces it and hands the turn over', async () => {
    const result = await proposeOutlineTool.execute(parse({ slides: rows }), ctx);
    expect(result.isError).toBeUndefined();
    expect(result.touched).toEqual([OUTLINE_PATH]);
    const stored = DeckOutline.parse(JSON.parse(readFileSync(join(root, OUTLINE_PATH), 'utf8')));
    expect(stored.status).toBe('proposed');
    expect(stored.approved_at).toBeNull();
    expect(stored.slides.map((s) => s.id)).toEqual(['s1', 'heat', 's2']);
    expect(stored.slides[1]).toMatchObject({ layout: 'stat', points: ['十二个站点', '夏季午后最大'], sources: [{ file: 'source/heat.pdf', pages: '1' }] });
    expect(result.announce).toEqual({ type: 'outline_proposed', outline: stored });
    expect(result.content).toMatch(/Stop here and wait/u);
    expect(proposeOutlineTool.traits).toMatchObject({ endsTurn: true, kind: 'edit', paths: { write: ['work'] } });
    // Atomic: no temporary file is left beside it.
    expect(readdirSync(join(root, 'work'))).toEqual(['outline.json']);
  });

  it('refuses invalid rows with the field path, before anything is written', () => {
    const bad = parseToolArguments(proposeOutlineTool, JSON.stringify({ slides: [{ title: 'x', layout: 'hero' }, { id: 'Bad Id', title: '', layout: 'bullets' }] }));
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error).toMatch(/Invalid arguments for tool propose_outline: /u);
    expect(bad.error).toMatch(/slides\[0\]\.layout/u);
    expect(bad.error).toMatch(/slides\[1\]\.id/u);
    expect(existsSync(join(root, OUTLINE_PATH))).toBe(false);
  });

  it('refuses sources that are not in the task folder', async () => {
    const args = parse({ slides: [{ title: 'A claim', layout: 'bullets', sources: [{ file: 'source/missing.pdf', pages: '3' }] }] });
    await expect(proposeOutlineTool.execute(args, ctx)).rejects.toThrow(/not in the task folder: source\/missing\.pdf/u);
    expect(existsSync(join(root, OUTLINE_PATH))).toBe(false);
  });

  it('replaces a link planted at work/outline.json instead of writing through it', async () => {
    const outside = makeTempRoot('folio-outline-outside-');
    try {
      writeFiles(outside, { 'target.json': 'keep' });
      writeFiles(root, { 'work/.keep': '' });
      symlinkSync(join(outside, 'target.json'), join(root, OUTLINE_PATH));
      expect((await readOutlineFile(root)).kind).toBe('invalid');
      await proposeOutlineTool.execute(parse({ slides: rows }), ctx);
      expect(readFileSync(join(outside, 'target.json'), 'utf8')).toBe('keep');
      expect((await readOutlineFile(root)).kind).toBe('ok');
    } finally {
      removeTemp(outside);
    }
  });

  it('offers the model a JSON schema with the layouts and the row fields', () => {
    const schema = JSON.stringify(toolSchema(proposeOutlineTool).parameters);
    for (const word of ['slides', 'title', 'layout', 'points', 'sources', 'pages', 'two_column', 'comparison']) expect(schema).toContain(word);
  });
});

describe('render_deck and the outline', () => {
  let root: string;
  let ctx: ToolContext;
  const saved = process.env[SOFFICE_ENV];
  const renderDeck = createRenderDeckTool();
  const spec = { title: 'Heat', slides: [{ layout: 'title' }, { layout: 'closing' }] };
  beforeEach(() => {
    root = makeTempRoot('folio-outline-render-');
    ctx = contextFor(root);
    writeFiles(root, { 'source/heat.pdf': '%PDF-1.4 stub' });
    process.env[SOFFICE_ENV] = join(root, 'no-such-soffice');
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[SOFFICE_ENV];
    else process.env[SOFFICE_ENV] = saved;
    removeTemp(root);
  });

  it('refuses while the outline waits for the person, and renders once it is approved', async () => {
    await proposeOutlineTool.execute(parse({ slides: rows }), ctx);
    await expect(renderDeck.execute({ spec }, ctx)).rejects.toThrow(/the person has not approved the outline yet/iu);
    expect(existsSync(join(root, 'artifacts'))).toBe(false);

    const state = await readOutlineFile(root);
    if (state.kind !== 'ok') throw new Error('outline missing');
    await writeOutline(root, { ...state.outline, status: 'approved', approved_at: Date.now() });
    const result = await renderDeck.execute({ spec }, ctx);
    expect(result.content).toMatch(/^Rendered artifacts\/heat\.pptx/u);
  });

  it('renders as before in a task without an outline, and names a damaged outline file', async () => {
    expect((await renderDeck.execute({ spec }, ctx)).content).toMatch(/^Rendered /u);
    writeFiles(root, { [OUTLINE_PATH]: '{"status": "approved"' });
    await expect(renderDeck.execute({ spec }, ctx)).rejects.toThrow(/work\/outline\.json is not JSON.*again with propose_outline/su);
  });
});
