// The rendered-slide check (LibreOffice → PDF → word positions → checks against the plan), per
// slide: on the check's own test deck (text, overflow, picture slides, with a plan) at 20 and 100
// slides, and on the 100-slide mixed deck of deck.bench.ts (charts, tables, images, CJK), whose
// conversion is heavier, with an empty plan (conversion and read-back only).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDeck } from '../src/main/renderers/deck';
import { slideSize } from '../src/shared/specs/deck-geometry';
import { verifyRenderedDeck, type VerifyInput, type VerifyResult } from '../src/main/renderers/deck/verify';
import { writeTestDeck } from '../src/main/renderers/deck/verify/testing';
import { sofficePath } from '../src/main/renderers/soffice';
import { stopWarmConverters } from '../src/main/renderers/soffice-warm';
import { loadPdfjs } from '../src/main/sources/formats/pdfjs-load';
import { benchDeckSpec } from './deck.bench';
import { type Bench, type BenchRow } from './types';

const SAMPLE_IMAGE = join(dirname(fileURLToPath(import.meta.url)), '..', 'samples', 'deck-zh-talk', 'figure-pipeline.png');

async function timed(input: VerifyInput): Promise<VerifyResult> {
  const result = await verifyRenderedDeck(input, { timeoutMs: 900_000 });
  if (result.mode !== 'rendered') throw new Error(`the check did not render: ${result.reason ?? 'no reason'}`);
  return result;
}

function row(name: string, result: VerifyResult, extra: string): BenchRow {
  const n = result.slides.length;
  const convert = result.convertMs ?? result.ms;
  const issues = result.slides.reduce((k, s) => k + s.issues.length, 0);
  return {
    name,
    folio: result.ms / n,
    baseline: null,
    unit: 'ms/slide',
    note: `total ${(result.ms / 1000).toFixed(1)} s: LibreOffice ${(convert / n).toFixed(0)} ms/slide, read-back and checks ${((result.ms - convert) / n).toFixed(1)} ms/slide; ${issues} issues${extra}`,
  };
}

async function run(): Promise<BenchRow[]> {
  if (!sofficePath()) throw new Error('soffice not installed (apt-get install libreoffice-impress): nothing to measure');
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-verify-'));
  try {
    // pdfjs loads once per process (slowly through tsx's hooks); the per-slide rows leave that out.
    const loadStart = performance.now();
    await loadPdfjs();
    const rows: BenchRow[] = [{ name: 'pdfjs load, once per process', folio: performance.now() - loadStart, baseline: null, unit: 'ms', note: 'through tsx here; the built app loads it faster' }];
    // The first check of a process starts the warm LibreOffice (soffice-warm.ts); the rows after it reuse it.
    const first = await writeTestDeck(join(dir, 'test-first.pptx'), 20);
    rows.push(row('rendered check, 20-slide test deck, first in the process', await timed(first), '; LibreOffice starts'));
    for (const count of [20, 100]) {
      const input = await writeTestDeck(join(dir, `test-${count}.pptx`), count);
      rows.push(row(`rendered check, ${count}-slide test deck`, await timed(input), ''));
    }
    copyFileSync(SAMPLE_IMAGE, join(dir, 'figure-pipeline.png'));
    const spec = benchDeckSpec();
    const rendered = await renderDeck(spec, { baseDir: dir, outDir: join(dir, 'artifacts') });
    const slides = Array.from({ length: rendered.slideCount }, (_, i) => ({ number: i + 1, sourceIndex: i, boxes: [] }));
    const { w, h } = slideSize(spec.aspect);
    // Without a plan the footer band cannot be told from the footer: put its line at the slide's foot.
    const mixed = await timed({ pptxPath: rendered.path, size: { w, h }, footerTop: h, slides });
    rows.push(row(`rendered check, ${rendered.slideCount}-slide mixed deck (no plan)`, mixed, '; charts, tables and images make the conversion heavier'));
    return rows;
  } finally {
    stopWarmConverters();
    rmSync(dir, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'deck-verify', run };
export default bench;
