import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FolioError } from '../../shared/errors';
import { createRenderDeckTool } from '../tools/render-deck-tool';
import { renderDocumentTool } from '../tools/render-document-tool';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from '../tools/testing';
import { previewSidecarPath, readArtifactPreview } from './artifact-preview';

const renderDeckTool = createRenderDeckTool();

const proposalDir = fileURLToPath(new URL('../../../samples/proposal-nsfc/', import.meta.url));

describe('readArtifactPreview', () => {
  let root: string;
  let deckPath: string;
  let docPath: string;

  beforeAll(async () => {
    root = makeTempRoot('folio-preview-');
    cpSync(proposalDir, join(root, 'proposal'), { recursive: true });
    const deck = await renderDeckTool.execute(
      { spec: { title: 'Preview Deck', theme: 'dark', slides: [{ layout: 'title' }, { layout: 'quote', quote: 'Less is more.' }] } },
      contextFor(root),
    );
    const doc = await renderDocumentTool.execute({ path: 'proposal' }, contextFor(root));
    deckPath = deck.touched?.[0] ?? '';
    docPath = doc.touched?.[0] ?? '';
    // A deck and the sample proposal rendered (and checked with LibreOffice where installed): over
    // 30 s on a loaded machine.
  }, 120_000);
  afterAll(() => removeTemp(root));

  it('returns the spec and report of a rendered deck', async () => {
    const preview = await readArtifactPreview(root, deckPath);
    expect(preview.kind).toBe('deck');
    if (preview.kind !== 'deck') return;
    expect(preview.path).toBe('artifacts/preview-deck.pptx');
    expect(preview.spec.theme).toBe('dark');
    // The theme drawn with travels with the preview, so user themes and templates preview as rendered.
    expect(preview.theme?.name).toBe('dark');
    expect(preview.spec.slides).toHaveLength(2);
    expect(preview.report?.summary.slides_in).toBe(2);
  });

  it('returns the spec, section markdown and report of a rendered document', async () => {
    const preview = await readArtifactPreview(root, docPath);
    expect(preview.kind).toBe('document');
    if (preview.kind !== 'document') return;
    expect(preview.path).toBe(docPath);
    expect(preview.spec.template).toBe('nsfc_general');
    expect(preview.sections).toHaveLength(7);
    expect(preview.sections[0]?.markdown).toContain('立项依据');
    expect(preview.report).toMatchObject({ stats: { sections: 7 } });
  });

  it('has no preview for files Folio did not render, or of other types', async () => {
    writeFiles(root, { 'artifacts/foreign.pptx': 'PK not really', 'notes.md': '# hi' });
    expect(await readArtifactPreview(root, 'artifacts/foreign.pptx')).toEqual({
      kind: 'none',
      path: 'artifacts/foreign.pptx',
      reason: "Made outside Folio's renderer: no preview data.",
    });
    const md = await readArtifactPreview(root, 'notes.md');
    expect(md).toMatchObject({ kind: 'none', path: 'notes.md' });
    expect(md.kind === 'none' && md.reason).toMatch(/\.pptx and \.docx/u);
  });

  it('falls back to none for corrupt, invalid, mismatched or stale sidecars', async () => {
    writeFiles(root, { 'artifacts/corrupt.pptx': 'x', 'artifacts/invalid.pptx': 'x', 'artifacts/swapped.docx': 'x', 'artifacts/stale.pptx': 'x' });
    writeFileSync(previewSidecarPath(join(root, 'artifacts/corrupt.pptx')), '{"kind": "deck", ');
    writeFileSync(previewSidecarPath(join(root, 'artifacts/invalid.pptx')), JSON.stringify({ kind: 'deck', spec: { title: 'x' }, report: null }));
    const deckSidecar = previewSidecarPath(join(root, deckPath));
    cpSync(deckSidecar, previewSidecarPath(join(root, 'artifacts/swapped.docx')));
    cpSync(deckSidecar, previewSidecarPath(join(root, 'artifacts/stale.pptx')));
    const past = new Date(Date.now() - 60_000);
    utimesSync(previewSidecarPath(join(root, 'artifacts/stale.pptx')), past, past);

    const reasons = await Promise.all(
      ['corrupt.pptx', 'invalid.pptx', 'swapped.docx', 'stale.pptx'].map(async (name) => {
        const preview = await readArtifactPreview(root, `artifacts/${name}`);
        expect(preview.kind).toBe('none');
        return preview.kind === 'none' ? preview.reason : '';
      }),
    );
    expect(reasons[0]).toMatch(/unreadable/u);
    expect(reasons[1]).toMatch(/does not match/u);
    expect(reasons[2]).toMatch(/describes a deck/u);
    expect(reasons[3]).toMatch(/changed after Folio rendered it/u);
  });

  it('refuses paths outside the task folder as path_escape, and missing files as not_found', async () => {
    const escape = readArtifactPreview(root, '../other/artifacts/x.pptx');
    await expect(escape).rejects.toBeInstanceOf(FolioError);
    await expect(escape).rejects.toMatchObject({ code: 'path_escape' });
    await expect(readArtifactPreview(root, 'artifacts/gone.pptx')).rejects.toMatchObject({ code: 'not_found' });
  });
});
