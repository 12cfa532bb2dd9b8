// Re-rendering a spec where one slide changed must leave every other slide's parts byte-identical:
// two renders are compared part by part, in one process (so pptxgenjs's global chart counter has
// moved on between them) and a second apart (so anything dated would differ).
import JSZip from 'jszip';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeckSpecInput } from '../../../shared/specs/deck';
import { TableMeasurer } from '../typesetting/fonts';
import { renderDeck } from './index';
import { checkPackage } from './pptx-inspect';
import { ZIP_DATE } from './stable-parts';

const figure = fileURLToPath(new URL('../../../../samples/deck-zh-talk/figure-pipeline.png', import.meta.url));

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'deck-stable-'));
  copyFileSync(figure, join(work, 'figure.png'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const chart = (title: string, values: number[]) => ({
  layout: 'chart' as const,
  title,
  chart: { type: 'column' as const, categories: ['2022', '2023', '2024'], series: [{ name: 'Samples', values }] },
});

/** Six slides with every kind of per-slide part: pictures, icons (SVG + PNG), charts with workbooks, notes. */
function deck(third: DeckSpecInput['slides'][number]): DeckSpecInput {
  return {
    title: 'Field study',
    slides: [
      { layout: 'title' },
      { layout: 'image', title: 'Setup', image: 'figure.png', notes: 'the rig' },
      third,
      chart('Samples per year', [18, 30, 42]),
      { layout: 'cards', title: 'Methods', cards: [{ title: 'Survey', icon: 'clipboard' }, { title: 'Sensors', icon: 'radio' }] },
      { layout: 'closing' },
    ],
  };
}

async function render(spec: DeckSpecInput, name: string): Promise<Map<string, Buffer>> {
  const { path } = await renderDeck(spec as never, { baseDir: work, outDir: work, fileName: name, measurer: new TableMeasurer() });
  const zip = await JSZip.loadAsync(readFileSync(path));
  const problems = await checkPackage(zip);
  expect(problems.missingTargets).toEqual([]);
  expect(problems.uncoveredParts).toEqual([]);
  for (const entry of Object.values(zip.files)) expect(entry.date.getTime()).toBe(ZIP_DATE.getTime());
  const parts = new Map<string, Buffer>();
  for (const [name, entry] of Object.entries(zip.files)) if (!entry.dir) parts.set(name, await entry.async('nodebuffer'));
  return parts;
}

/** Names of the parts that differ (or exist in one file only). */
function differing(a: Map<string, Buffer>, b: Map<string, Buffer>): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((n) => !(a.get(n)?.equals(b.get(n) ?? Buffer.alloc(0)) ?? false)).sort();
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('per-slide parts are deterministic', () => {
  it('the same spec rendered twice gives the same parts, apart from the modified time', async () => {
    const spec = deck({ layout: 'bullets', title: 'Findings', bullets: ['Sample size grew to 42', 'Response rate 81%'] });
    const a = await render(spec, 'same');
    await wait(1100);
    const b = await render(spec, 'same');
    expect(differing(a, b)).toEqual(['docProps/core.xml']);
  });

  it('changing slide 3 changes only slide 3', async () => {
    const a = await render(deck({ layout: 'bullets', title: 'Findings', bullets: ['Sample size grew to 42', 'Response rate 81%'] }), 'one');
    await wait(1100);
    const b = await render(deck({ layout: 'bullets', title: 'Findings', bullets: ['Sample size grew to 42', 'Response rate 81%', 'Two sites'] }), 'one');
    expect(differing(a, b)).toEqual(['docProps/core.xml', 'ppt/slides/slide3.xml']);
  });

  it('slide 3 turning from bullets into a chart adds its chart parts and leaves the next chart alone', async () => {
    const a = await render(deck({ layout: 'bullets', title: 'Findings', bullets: ['Sample size grew to 42', 'Response rate 81%'] }), 'mid');
    const b = await render(deck(chart('Findings', [42, 81, 12])), 'mid');
    expect(differing(a, b)).toEqual([
      '[Content_Types].xml',
      'docProps/core.xml',
      'ppt/charts/_rels/chart-s3-1.xml.rels',
      'ppt/charts/chart-s3-1.xml',
      'ppt/embeddings/Microsoft_Excel_Worksheet-s3-1.xlsx',
      'ppt/slides/_rels/slide3.xml.rels',
      'ppt/slides/slide3.xml',
    ].filter((n) => n !== 'docProps/core.xml' || !a.get(n)?.equals(b.get(n) ?? Buffer.alloc(0))));
    // The chart on slide 4 is named after its slide, not after how many charts came before it.
    expect(b.has('ppt/charts/chart-s4-1.xml')).toBe(true);
    expect(b.get('ppt/slides/_rels/slide4.xml.rels')?.toString()).toContain('Target="/ppt/charts/chart-s4-1.xml"');
    expect(b.get('[Content_Types].xml')?.toString()).toContain('PartName="/ppt/charts/chart-s3-1.xml"');
    // Pictures are named after their slide too, and the slide carries its id as its name.
    expect([...b.keys()].filter((n) => n.startsWith('ppt/media/slide-s5-'))).toHaveLength(4);
    expect(b.get('ppt/slides/slide2.xml')?.toString()).toContain('<p:cSld name="s2"');
  });

  it('ids the spec gives name the parts; continuations carry their slide id with their part', async () => {
    const many = Array.from({ length: 24 }, (_, i) => `Point ${i + 1} with a few more words to make the list long`);
    const spec: DeckSpecInput = {
      title: 'Ids',
      slides: [
        { layout: 'bullets', id: 'long', title: 'Long list', bullets: many },
        { ...chart('Results', [1, 2, 3]), id: 'results' },
      ],
    };
    const parts = await render(spec, 'ids');
    const names = [...parts.keys()];
    expect(names).toContain('ppt/charts/chart-results-1.xml');
    const slideNames = names
      .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
      .map((n) => /<p:cSld name="([^"]*)"/.exec(parts.get(n)?.toString() ?? '')?.[1]);
    expect(slideNames.length).toBeGreaterThan(2);
    expect(slideNames.slice(0, 2)).toEqual(['long', 'long.2']);
  });
});
