import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProgressStep } from '../../shared/contract';
import { ArtifactPreview } from '../../shared/contract/methods';
import { type DeckSpecInput, type QualityReport } from '../../shared/specs/deck';
import { previewSidecarPath } from '../renderers/artifact-preview';
import { SOFFICE_ENV, sofficePath } from '../renderers/soffice';
import { toolSchema } from './registry';
import { deckFileName, formatQualityReport, createRenderDeckTool, titleSlug } from './render-deck-tool';
import { contextFor, makeTempRoot, removeTemp, writeFiles } from './testing';
import { type ToolContext } from './types';

const renderDeckTool = createRenderDeckTool();

const savedSoffice = process.env[SOFFICE_ENV];
function restoreSoffice(): void {
  if (savedSoffice === undefined) delete process.env[SOFFICE_ENV];
  else process.env[SOFFICE_ENV] = savedSoffice;
}
const hasSoffice = sofficePath() !== null;

const sampleDir = fileURLToPath(new URL('../../../samples/deck-zh-talk/', import.meta.url));

const smallSpec: DeckSpecInput = {
  title: 'Quarterly Review: Results & Plans',
  slides: [
    { layout: 'title' },
    { layout: 'bullets', title: 'What we did', bullets: ['Shipped the renderer', 'Wrote the tests', 'Fixed the fonts'] },
    { layout: 'closing' },
  ],
};

function readSidecar(root: string, rel: string): unknown {
  return JSON.parse(readFileSync(previewSidecarPath(join(root, rel)), 'utf8')) as unknown;
}

describe('render_deck', () => {
  let root: string;
  let ctx: ToolContext;
  beforeEach(() => {
    root = makeTempRoot('folio-render-deck-');
    ctx = contextFor(root);
    // These tests are about the tool, not LibreOffice: without it the report is estimated, at once.
    process.env[SOFFICE_ENV] = join(root, 'no-such-soffice');
  });
  afterEach(() => {
    restoreSoffice();
    removeTemp(root);
  });

  it('renders an inline spec into artifacts/, reports slides and quality, and writes a preview sidecar', async () => {
    const progress: Array<[ProgressStep, number, number | null]> = [];
    const result = await renderDeckTool.execute({ spec: smallSpec }, { ...ctx, progress: (of, d, t) => progress.push([of.step, d, t]) });

    expect(result.isError).toBeUndefined();
    expect(result.touched).toEqual(['artifacts/quarterly-review-results-plans.pptx']);
    expect(existsSync(join(root, 'artifacts/quarterly-review-results-plans.pptx'))).toBe(true);
    expect(result.content).toContain('Rendered artifacts/quarterly-review-results-plans.pptx from the inline spec: 3 slides in the file');
    expect(result.content).toMatch(/Quality report, estimated \(LibreOffice not installed\): \d+ issues?; 3 spec slides became 3 slides\./u);
    expect(progress[0]).toEqual(['render_deck', 0, 3]);
    expect(progress).toContainEqual(['render_deck', 3, 3]);
    // No LibreOffice, nothing to wait for: no "checking" progress.
    expect(progress.filter(([step]) => step !== 'render_deck')).toEqual([]);

    const sidecar = readSidecar(root, 'artifacts/quarterly-review-results-plans.pptx');
    const parsed = ArtifactPreview.parse({ ...(sidecar as object), path: 'x' });
    expect(parsed.kind).toBe('deck');
    if (parsed.kind !== 'deck') return;
    // The validated spec, defaults filled, so the UI draws it with the same theme.
    expect(parsed.spec.theme).toBe('academic');
    expect(parsed.spec.slides).toHaveLength(3);
    expect(parsed.report?.summary.slides_out).toBe(3);
    expect(parsed.report?.checked).toEqual({ mode: 'estimated', reason: 'LibreOffice not installed' });
  });

  it('never overwrites: a second render of the same deck becomes -v2', async () => {
    await renderDeckTool.execute({ spec: smallSpec }, ctx);
    const second = await renderDeckTool.execute({ spec: smallSpec }, ctx);
    expect(second.touched).toEqual(['artifacts/quarterly-review-results-plans-v2.pptx']);
    expect(existsSync(join(root, 'artifacts/quarterly-review-results-plans.pptx'))).toBe(true);
    expect(existsSync(previewSidecarPath(join(root, 'artifacts/quarterly-review-results-plans-v2.pptx')))).toBe(true);
  });

  it('renders the sample from a spec file, with its image resolved from the task folder', async () => {
    copyFileSync(join(sampleDir, 'deck.json'), join(root, 'deck.json'));
    copyFileSync(join(sampleDir, 'figure-pipeline.png'), join(root, 'figure-pipeline.png'));
    const spec = JSON.parse(readFileSync(join(sampleDir, 'deck.json'), 'utf8')) as { slides: unknown[] };

    const result = await renderDeckTool.execute({ spec_path: 'deck.json' }, ctx);
    // A Chinese title has no ASCII slug, so the file is called deck.pptx. The sample's slides have no
    // ids: they were given s1, s2, ... and written into the spec file.
    expect(result.touched).toEqual(['artifacts/deck.pptx', 'deck.json']);
    const count = /: (\d+) slides in the file \((\d+) spec slides\)/u.exec(result.content);
    expect(count?.[2]).toBe(String(spec.slides.length));
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(spec.slides.length);
    expect(result.content).not.toContain('missing_image');
    const sidecar = readSidecar(root, 'artifacts/deck.pptx') as { kind: string; report: QualityReport };
    expect(sidecar.kind).toBe('deck');
    expect(sidecar.report.summary.slides_out).toBe(Number(count?.[1]));
  });

  it('uses a given name, made safe, with .pptx added once', async () => {
    const result = await renderDeckTool.execute({ spec: smallSpec, name: '../组会 报告:v1.pptx' }, ctx);
    expect(result.touched).toEqual(['artifacts/组会 报告-v1.pptx']);
  });

  it('lists every quality issue with its spec index and kind', async () => {
    const spec: DeckSpecInput = {
      title: 'Issues',
      slides: [
        { layout: 'title' },
        { layout: 'image', title: 'Missing figure', image: 'figures/nope.png' },
        { layout: 'bullets', title: 'Empty', bullets: [] },
      ],
    };
    const result = await renderDeckTool.execute({ spec }, ctx);
    expect(result.content).toMatch(/slides\[1\] \(file slide 2\):\n {2}- missing_image: /u);
    expect(result.content).toMatch(/slides\[2\] \(file slide 3\):\n {2}- (near_)?empty: /u);
    expect(result.content).not.toContain('No issues.');
  });

  it('returns each validation error with its slides[...] path', async () => {
    const bad = {
      title: 'Bad',
      slides: [{ layout: 'bullets', bullets: ['a'] }, { layout: 'gantt', title: 'x' }],
    };
    await expect(renderDeckTool.execute({ spec: bad }, ctx)).rejects.toThrow(/invalid \(2 errors\)[\s\S]*- slides\[0\]\.title: required[\s\S]*- slides\[1\]\.layout: unknown layout "gantt"/u);
    // The person's tool card says it from the failure's kind, not from these English lines.
    await expect(renderDeckTool.execute({ spec: bad }, ctx)).rejects.toMatchObject({ failure: { kind: 'invalid_spec', count: 2 } });
    expect(existsSync(join(root, 'artifacts'))).toBe(false);
  });

  it('names the line and column of malformed JSON in a spec file', async () => {
    writeFiles(root, { 'deck.json': '{\n  "title": "x",\n  "slides": [,]\n}' });
    await expect(renderDeckTool.execute({ spec_path: 'deck.json' }, ctx)).rejects.toThrow(/deck\.json is not valid JSON at line 3/u);
  });

  it('refuses spec paths outside the task folder, missing files and folders', async () => {
    await expect(renderDeckTool.execute({ spec_path: '../x.json' }, ctx)).rejects.toThrow(/escapes the task folder/u);
    await expect(renderDeckTool.execute({ spec_path: 'nope.json' }, ctx)).rejects.toThrow('Deck spec not found: nope.json');
    writeFiles(root, { 'decks/a.txt': 'x' });
    await expect(renderDeckTool.execute({ spec_path: 'decks' }, ctx)).rejects.toThrow(/is a folder/u);
    const outside = makeTempRoot('folio-outside-');
    try {
      writeFiles(outside, { 'deck.json': JSON.stringify(smallSpec) });
      symlinkSync(join(outside, 'deck.json'), join(root, 'link.json'));
      await expect(renderDeckTool.execute({ spec_path: 'link.json' }, ctx)).rejects.toThrow(/outside the task folder/u);
    } finally {
      removeTemp(outside);
    }
  });

  it('needs exactly one of spec_path and spec', async () => {
    writeFiles(root, { 'deck.json': JSON.stringify(smallSpec) });
    await expect(renderDeckTool.execute({ spec_path: 'deck.json', spec: { title: 'x' } }, ctx)).rejects.toThrow('Give either spec_path or spec, not both.');
    await expect(renderDeckTool.execute({}, ctx)).rejects.toThrow(/Give the deck spec: spec_path .* or spec/u);
  });

  it('is an edit tool whose schema offers spec_path, spec and name', () => {
    expect(renderDeckTool.traits).toMatchObject({ kind: 'edit', writesArtifacts: true, paths: { write: ['artifact', 'work'] } });
    expect(renderDeckTool.parameters.safeParse({ spec: 'not an object' }).success).toBe(false);
    expect(renderDeckTool.parameters.safeParse({ spec_path: 'deck.json', name: 'talk' }).success).toBe(true);
    const schema = toolSchema(renderDeckTool).parameters as { properties: Record<string, { type?: string }>; required?: string[] };
    expect(Object.keys(schema.properties)).toEqual(['spec_path', 'spec', 'name']);
    expect(schema.properties.spec?.type).toBe('object');
    expect(schema.required ?? []).toEqual([]);
  });
});

describe.skipIf(!hasSoffice)('render_deck with LibreOffice', () => {
  let root: string;
  beforeEach(() => {
    restoreSoffice();
    root = makeTempRoot('folio-render-deck-lo-');
  });
  afterEach(() => removeTemp(root));

  it('checks the report against the rendered slides, reports progress per page and keeps the merged report in the sidecar', async () => {
    const spec: DeckSpecInput = {
      title: 'Field notes',
      slides: [
        { layout: 'title', title: 'Field notes', subtitle: 'Spring survey' },
        { layout: 'bullets', title: 'What we saw', bullets: ['Twelve nesting pairs', 'Two new colonies', 'Water levels up 30 cm'] },
        { layout: 'stat', title: 'By the numbers', stats: [{ value: '12', label: 'nesting pairs' }, { value: '2', label: 'new colonies' }] },
        { layout: 'closing', title: 'Thank you' },
      ],
    };
    const progress: Array<[ProgressStep, number, number | null]> = [];
    const tool = createRenderDeckTool({ hiddenPaths: [join(root, 'data')] });
    const result = await tool.execute({ spec }, { ...contextFor(root), progress: (of, d, t) => progress.push([of.step, d, t]) });

    expect(result.content).toContain('Quality report, verified against the rendered slides:');
    expect(result.content).not.toMatch(/off_slide|in_footer|outside_box/u);
    const checking = progress.filter(([step]) => step === 'check_slides');
    expect(checking[0]).toEqual(['check_slides', 0, 4]);
    expect(checking[checking.length - 1]).toEqual(['check_slides', 4, 4]);
    const sidecar = readSidecar(root, 'artifacts/field-notes.pptx') as { report: QualityReport };
    expect(sidecar.report.checked).toEqual({ mode: 'rendered' });
    const kinds = sidecar.report.slides.flatMap((s) => s.issues.map((i) => i.kind));
    expect(kinds).not.toContain('off_slide');
    expect(kinds).not.toContain('in_footer');
  });
});

describe('deck file names', () => {
  it('slugs titles to ASCII and falls back to deck', () => {
    expect(titleSlug('Réseaux de neurones: état de l’art')).toBe('reseaux-de-neurones-etat-de-l-art');
    expect(deckFileName(undefined, '大语言模型辅助的文献综述')).toBe('deck.pptx');
    expect(deckFileName(undefined, 'A'.repeat(30) + ' ' + 'b'.repeat(40))).toBe(`${'a'.repeat(30)}.pptx`);
    expect(deckFileName('...', 'Talk')).toBe('talk.pptx');
    expect(deckFileName('CON', 'Talk')).toBe('CON-deck.pptx');
    expect(deckFileName('.hidden', 'Talk')).toBe('hidden.pptx');
  });
});

describe('formatQualityReport', () => {
  it('says "No issues." when there are none', () => {
    const report: QualityReport = { slides: [{ index: 0, output_slides: [1], issues: [] }], summary: { slides_in: 1, slides_out: 1, issues: 0 } };
    expect(formatQualityReport(report)).toBe('Quality report, estimated (the slides were not rendered): 0 issues; 1 spec slides became 1 slides.\nNo issues.');
  });

  it('names the file slides a split spec slide became', () => {
    const report: QualityReport = {
      slides: [
        { index: 0, output_slides: [1], issues: [] },
        {
          index: 1,
          output_slides: [2, 3, 4],
          issues: [
            { kind: 'split', message: 'bullets continued on 2 more slides' },
            { kind: 'shrunk', message: 'body text 16 pt' },
          ],
        },
      ],
      summary: { slides_in: 2, slides_out: 4, issues: 2 },
      checked: { mode: 'rendered' },
    };
    expect(formatQualityReport(report)).toBe(
      'Quality report, verified against the rendered slides: 2 issues; 2 spec slides became 4 slides.\n' +
        'slides[1] (file slides 2-4):\n  - split: bullets continued on 2 more slides\n  - shrunk: body text 16 pt',
    );
  });
});
