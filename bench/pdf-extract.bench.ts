// PDF extraction: a 300-page Chinese/English PDF (made once by LibreOffice and kept in the temp
// folder) extracted by Folio's worker-thread extractor, against poppler's `pdftotext` on the same
// file. Also the proof that extraction leaves the UI responsive: the main thread's event-loop delay
// while a worker does the work.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { extractFile } from '../src/main/sources/extract';
import { minimalPdf } from '../src/main/sources/testing';
import { measurePeakRss, toMegabytes } from './memory-sampler';
import { elapsedMs, median } from './stats';
import { type Bench, type BenchRow } from './types';

const PAGES = 300;
const RUNS = 3;
/** Bump to rebuild the cached fixture when its text changes. */
const FIXTURE = join(tmpdir(), `folio-bench-pdf-extract-${PAGES}p-v2.pdf`);

function has(tool: string): boolean {
  return spawnSync('which', [tool], { stdio: 'ignore' }).status === 0;
}

function pageText(page: number): string {
  const lines = [`第 ${page} 页  Chapter ${Math.ceil(page / 10)}, page ${page}`];
  for (let i = 0; i < 16; i += 1) {
    lines.push(`研究内容 ${page}.${i}：文档提取需要按页保留文本。 Extraction keeps text page by page so the agent can cite page ${page}.`);
  }
  return lines.join('\n');
}

/** Form feeds become page breaks when LibreOffice converts plain text. */
function buildFixture(): void {
  if (existsSync(FIXTURE)) return;
  const work = mkdtempSync(join(tmpdir(), 'folio-bench-pdf-'));
  try {
    const txt = join(work, 'book.txt');
    writeFileSync(txt, Array.from({ length: PAGES }, (_, i) => pageText(i + 1)).join('\n\f'));
    execFileSync('soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--convert-to', 'pdf', '--outdir', work, txt], {
      stdio: 'ignore',
      timeout: 600_000,
    });
    renameSync(join(work, 'book.pdf'), FIXTURE);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function pdfPageCount(pdf: string): number | null {
  const info = spawnSync('pdfinfo', [pdf], { encoding: 'utf8' });
  const m = /^Pages:\s+(\d+)/mu.exec(info.stdout ?? '');
  return m ? Number(m[1]) : null;
}

interface BaselineRun {
  seconds: number;
  maxRssMb: number | null;
}

/** pdftotext's wall time, and its peak RSS through GNU time when that is installed. */
function runPdftotext(pdf: string, out: string): BaselineRun {
  const useTime = existsSync('/usr/bin/time');
  const started = performance.now();
  const child = useTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', 'pdftotext', '-enc', 'UTF-8', pdf, out], { encoding: 'utf8' })
    : spawnSync('pdftotext', ['-enc', 'UTF-8', pdf, out], { encoding: 'utf8' });
  const seconds = elapsedMs(started) / 1000;
  if (child.status !== 0) throw new Error(`pdftotext failed: ${child.stderr}`);
  const kb = useTime ? Number(child.stderr.trim().split('\n').at(-1)) : NaN;
  return { seconds, maxRssMb: Number.isFinite(kb) ? kb / 1024 : null };
}

function missingRows(missing: string[]): BenchRow[] {
  const note = `not measured: ${missing.join(' and ')} not installed`;
  return [
    { name: `extract ${PAGES}-page PDF`, folio: NaN, baseline: null, unit: 's', note },
    { name: 'pages per second', folio: NaN, baseline: null, unit: 'pages/s', note },
    { name: 'peak RSS growth', folio: NaN, baseline: null, unit: 'MB', note },
    { name: 'main-thread event-loop delay p99 during extraction', folio: NaN, baseline: null, unit: 'ms', target: '< 50 ms', note },
  ];
}

async function run(): Promise<BenchRow[]> {
  const missing = ['soffice', 'pdftotext'].filter((t) => !has(t));
  if (missing.length > 0) return missingRows(missing);
  buildFixture();
  const pages = pdfPageCount(FIXTURE) ?? PAGES;

  // A one-page extraction first: the fixed cost of a worker (thread start, loading pdfjs).
  const tiny = join(tmpdir(), `folio-bench-pdf-extract-tiny-${process.pid}.pdf`);
  writeFileSync(tiny, minimalPdf([['One page of text for timing the worker start-up.']]));
  const startupStarted = performance.now();
  await extractFile(tiny);
  const startupMs = elapsedMs(startupStarted);

  const seconds: number[] = [];
  const delays: number[] = [];
  let peakGrowthMb = 0;
  let workerMaxRssMb = 0;
  let workerHeapMb = 0;
  let extractedPages = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    const { result, memory } = await measurePeakRss(() => extractFile(FIXTURE, { timeoutMs: 600_000 }));
    seconds.push(elapsedMs(started) / 1000);
    loop.disable();
    delays.push(loop.percentile(99) / 1e6);
    if (result.status !== 'ok') throw new Error(`extraction failed: ${result.status} ${result.message ?? ''}`);
    extractedPages = result.pages ?? 0;
    peakGrowthMb = Math.max(peakGrowthMb, toMegabytes(memory.peakBytes - memory.startBytes));
    workerMaxRssMb = Math.max(workerMaxRssMb, toMegabytes(result.worker?.maxRssBytes ?? 0));
    workerHeapMb = Math.max(workerHeapMb, toMegabytes(result.worker?.peakHeapBytes ?? 0));
  }
  rmSync(tiny, { force: true });

  const out = join(tmpdir(), `folio-bench-pdftotext-${process.pid}.txt`);
  const baselineRuns: BaselineRun[] = [];
  try {
    for (let i = 0; i < RUNS; i += 1) baselineRuns.push(runPdftotext(FIXTURE, out));
  } finally {
    rmSync(out, { force: true });
  }
  const folioSeconds = median(seconds);
  const baselineSeconds = median(baselineRuns.map((r) => r.seconds));
  const baselineRss = baselineRuns.map((r) => r.maxRssMb).filter((v): v is number => v !== null);

  return [
    {
      name: `extract ${pages}-page PDF (CJK + English), median of ${RUNS}`,
      folio: folioSeconds,
      baseline: baselineSeconds,
      unit: 's',
      note: `Folio: pdfjs in a fresh worker thread per file, incl. ~${Math.round(startupMs)} ms worker start-up (run from source via tsx); ${extractedPages} pages extracted`,
    },
    { name: 'pages per second', folio: pages / folioSeconds, baseline: pages / baselineSeconds, unit: 'pages/s' },
    {
      name: 'peak RSS growth during extraction',
      folio: peakGrowthMb,
      baseline: baselineRss.length > 0 ? Math.max(...baselineRss) : null,
      unit: 'MB',
      note: `Folio: growth of the whole process, sampled every 10 ms (worker heap peak ${workerHeapMb.toFixed(0)} MB; process max RSS seen by the worker ${workerMaxRssMb.toFixed(0)} MB). pdftotext: its whole max RSS (GNU time)`,
    },
    {
      name: 'main-thread event-loop delay p99 during extraction',
      folio: Math.max(...delays),
      baseline: null,
      unit: 'ms',
      target: '< 50 ms',
      note: 'worst p99 of the runs; the work happens in a worker thread, so the UI thread stays free',
    },
  ];
}

const bench: Bench = { name: 'pdf-extract', run };
export default bench;
