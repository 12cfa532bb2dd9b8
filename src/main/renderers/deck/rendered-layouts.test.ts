// The proof the issue asks for: every layout in every built-in theme, sparse and dense, rendered by
// LibreOffice and read back word by word. Nothing may leave the slide or its box, run into the footer
// band, overlap another box, or set a title on more than two lines. One LibreOffice run converts
// every theme's deck.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeckSlide, type QualityIssueKind } from '../../../shared/specs/deck';
import { BUILTIN_THEMES } from '../../../shared/specs/themes';
import { sofficePath } from '../soffice';
import { renderDeck } from './index';
import { sampleSlides, visualSamples } from './plan/samples';
import { convertToPdf } from '../document/testing/soffice-pdf';
import { checkRenderedPdf } from './rendered-check';

const sampleDir = join(__dirname, '..', '..', '..', '..', 'samples', 'deck-zh-talk');
const RENDERED_PROBLEMS: readonly QualityIssueKind[] = ['off_slide', 'outside_box', 'in_footer', 'overlap', 'title_lines'];

function allLayoutSlides(): DeckSlide[] {
  const { sparse, dense } = sampleSlides('fig.png');
  const visual = Object.values(visualSamples()).flatMap((v) => [v.sparse, v.dense]);
  const sample = JSON.parse(readFileSync(join(sampleDir, 'deck.json'), 'utf8')) as { slides: DeckSlide[] };
  const data = sample.slides.filter((s) => s.layout === 'chart' || s.layout === 'table');
  return [...sparse, ...dense, ...visual, ...data];
}

describe.skipIf(sofficePath() === null)('every layout in every theme, as LibreOffice renders it', () => {
  const slides = allLayoutSlides();
  let dir: string;
  const checked = new Map<string, Awaited<ReturnType<typeof checkRenderedPdf>>>();

  // Every theme's deck in one LibreOffice run, then each checked from its PDF.
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deck-layouts-'));
    copyFileSync(join(sampleDir, 'figure-pipeline.png'), join(dir, 'fig.png'));
    const decks = [];
    for (const theme of BUILTIN_THEMES.map((t) => t.name)) {
      decks.push({ theme, rendered: await renderDeck({ title: `Layouts in ${theme}`, theme, slides } as never, { baseDir: dir, outDir: dir, fileName: `${theme}.pptx` }) });
    }
    const pdfs = convertToPdf(dir, decks.map((d) => d.rendered.path), 240_000);
    for (const [i, d] of decks.entries()) checked.set(d.theme, await checkRenderedPdf(d.rendered, new Uint8Array(readFileSync(pdfs[i] ?? ''))));
  }, 300_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(BUILTIN_THEMES.map((t) => t.name))('%s: no word off the slide, outside its box, in the footer band or overlapping; titles on at most two lines', (theme) => {
    const result = checked.get(theme);
    if (!result) throw new Error(`no check for ${theme}`);
    const { report, verification } = result;
    expect(verification.mode, verification.reason).toBe('rendered');
    expect(report.checked?.mode).toBe('rendered');
    const problems = report.slides.flatMap((s) =>
      s.issues.filter((i) => RENDERED_PROBLEMS.includes(i.kind)).map((i) => `slides[${s.index}] (${slides[s.index]?.layout}) ${i.kind}: ${i.message}`),
    );
    expect(problems).toEqual([]);
  });
});
