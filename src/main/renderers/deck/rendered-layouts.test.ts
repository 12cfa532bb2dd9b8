// The proof the issue asks for: every layout in every built-in theme, sparse and dense, rendered by
// LibreOffice and read back word by word. Nothing may leave the slide or its box, run into the footer
// band, overlap another box, or set a title on more than two lines.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DeckSlide, type QualityIssueKind } from '../../../shared/specs/deck';
import { BUILTIN_THEMES } from '../../../shared/specs/themes';
import { sofficePath } from '../soffice';
import { renderDeck } from './index';
import { sampleSlides, visualSamples } from './plan/samples';
import { checkRenderedDeck } from './rendered-check';

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
  it.each(BUILTIN_THEMES.map((t) => t.name))(
    '%s: no word off the slide, outside its box, in the footer band or overlapping; titles on at most two lines',
    async (theme) => {
      const dir = mkdtempSync(join(tmpdir(), 'deck-layouts-'));
      try {
        copyFileSync(join(sampleDir, 'figure-pipeline.png'), join(dir, 'fig.png'));
        const slides = allLayoutSlides();
        const rendered = await renderDeck({ title: `Layouts in ${theme}`, theme, slides } as never, { baseDir: dir, outDir: dir });
        const { report, verification } = await checkRenderedDeck(rendered, { timeoutMs: 240_000 });
        expect(verification.mode, verification.reason).toBe('rendered');
        expect(report.checked?.mode).toBe('rendered');
        const problems = report.slides.flatMap((s) =>
          s.issues.filter((i) => RENDERED_PROBLEMS.includes(i.kind)).map((i) => `slides[${s.index}] (${slides[s.index]?.layout}) ${i.kind}: ${i.message}`),
        );
        expect(problems).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
