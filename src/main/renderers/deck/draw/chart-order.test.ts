// A horizontal bar chart as LibreOffice draws it: categories top to bottom in the plan's order,
// inside each category the first series on top, and the legend listing the series in that same
// order (it used to list them backwards, from the reversed category axis).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChartSpec } from '../../../../shared/specs/deck';
import { BUILTIN_THEMES, type Theme } from '../../../../shared/specs/themes';
import { convertToPdf, sofficePath } from '../../soffice';
import { planChartElement } from '../plan/chart';
import { readPdfWords, type RenderedWord } from '../verify/pdf-words';
import { drawChart } from './chart';
import { blocks, chartParts, drawContext, partText, vals, writeDeck } from './test-support';

const theme = BUILTIN_THEMES.find((t) => t.name === 'business') as Theme;
const box = { x: 0.6, y: 0.6, w: 12, h: 6.2 };
const spec: ChartSpec = {
  type: 'bar',
  categories: ['Top', 'Middle', 'Bottom'],
  series: [
    { name: 'Alpha', values: [11, 12, 13] },
    { name: 'Beta', values: [21, 22, 23] },
    { name: 'Gamma', values: [31, 32, 33] },
  ],
};

async function drawn(): Promise<{ bytes: Uint8Array; xml: string }> {
  const ctx = drawContext(theme);
  drawChart(ctx, planChartElement(spec, theme, box));
  const { bytes, zip } = await writeDeck(ctx);
  return { bytes, xml: await partText(zip, chartParts(zip)[0] ?? '') };
}

describe('horizontal bars: the file holds the data bottom-up on an ordinary axis', () => {
  it('writes the last category and the last series first, without reversing the category axis', async () => {
    const { xml } = await drawn();
    const sers = blocks(xml, 'c:ser');
    expect(sers.map((s) => /<c:tx>[\s\S]*?<c:v>([^<]*)<\/c:v>/.exec(s)?.[1])).toEqual(['Gamma', 'Beta', 'Alpha']);
    const cat = /<c:cat>([\s\S]*?)<\/c:cat>/.exec(sers[0] ?? '')?.[1] ?? '';
    expect(Array.from(cat.matchAll(/<c:v>([^<]*)<\/c:v>/g), (m) => m[1])).toEqual(['Bottom', 'Middle', 'Top']);
    expect(vals(blocks(xml, 'c:catAx')[0] ?? '', 'c:orientation')).toEqual(['minMax']);
  });
});

const soffice = sofficePath();
if (!soffice) console.warn('soffice not installed (apt-get install libreoffice-impress): skipping the rendered legend-order check');

describe.skipIf(!soffice)('horizontal bars as LibreOffice draws them', () => {
  const work = mkdtempSync(join(tmpdir(), 'folio-chart-order-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('reads top to bottom in plan order, and the legend lists the series in the order of the bars', async () => {
    const { bytes } = await drawn();
    const file = join(work, 'bars.pptx');
    writeFileSync(file, bytes);
    const pdf = await convertToPdf(file, { timeoutMs: 120_000 });
    const [page] = await readPdfWords(pdf, { w: 13.333, h: 7.5 });
    const words = page?.words ?? [];
    const at = (text: string): RenderedWord => {
      const found = words.filter((w) => w.text === text);
      expect(found, `"${text}" drawn once`).toHaveLength(1);
      return found[0];
    };
    // Categories top to bottom.
    expect(at('Top').y).toBeLessThan(at('Middle').y);
    expect(at('Middle').y).toBeLessThan(at('Bottom').y);
    // Inside the first category, the bars (by their value labels) in series order, top to bottom.
    expect(at('11').y).toBeLessThan(at('21').y);
    expect(at('21').y).toBeLessThan(at('31').y);
    // The legend (one line at the bottom) in the same order, left to right.
    expect(at('Alpha').x).toBeLessThan(at('Beta').x);
    expect(at('Beta').x).toBeLessThan(at('Gamma').x);
  }, 180_000);
});
