// PDF extraction against poppler's `pdftotext` on the same file, with the worker bundled as in the
// app. First the real PDFs from Debian packages the tests read (DEBIAN_PDFS, e.g. a 139-page
// Chinese TeX book with CID fonts): the first file of a session (a fresh pool whose spare worker
// is ready, as after the app's start-up; the note gives it without the spare) and warm (workers
// reused), and the whole process's peak RSS while extracting them, and while extracting a
// 2,415-page reference manual (refman-fixture.ts), the size. Then a 300-page Chinese/English PDF
// (made once by LibreOffice and kept in the temp folder): cold (new worker threads) and warm. Also
// the proof that extraction leaves the UI responsive: the main thread's event-loop delay meanwhile.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { type ExtractOptions, extractFile, prewarmExtraction, stopPrewarm, useCodeCacheDir, useWorkerScript } from '../src/main/sources/extract';
import { DEBIAN_PDFS, type DebianPdf, installedDebianPdfs, minimalPdf } from '../src/main/sources/testing';
import { type ExtractionResult } from '../src/main/sources/types';
import { measurePeakRss, toMegabytes } from './memory-sampler';
import { REFMAN_PAGES, refmanFixture } from './refman-fixture';
import { elapsedMs, median } from './stats';
import { type Bench, type BenchRow } from './types';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = 300;
const RUNS = 3;
/** The Debian PDFs are small: more runs to steady the medians. */
const DEBIAN_RUNS = 5;
/** What the issue allows the whole app while it extracts. */
const RSS_TARGET_MB = 400;
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
    { name: `extract ${PAGES}-page PDF, cold`, folio: NaN, baseline: null, unit: 's', note },
    { name: `extract ${PAGES}-page PDF, warm`, folio: NaN, baseline: null, unit: 's', note },
    { name: 'pages per second (warm)', folio: NaN, baseline: null, unit: 'pages/s', note },
    { name: 'peak RSS growth', folio: NaN, baseline: null, unit: 'MB', note },
    { name: 'main-thread event-loop delay p99 during extraction', folio: NaN, baseline: null, unit: 'ms', target: '< 50 ms', note },
  ];
}

/**
 * The worker as the app ships it: its entry bundled the way electron-vite bundles main-process
 * code (dependencies stay external), so the bench does not time tsx transpiling sources. Built into
 * a folder of this run's own under this checkout's out/ (git-ignored), so the bundle resolves
 * pdfjs-dist like out/main/ does, and two benches at once (two checkouts sharing node_modules, or
 * two runs in one) never run or overwrite each other's build. The caller removes it.
 */
async function buildWorker(outDir: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const deps = Object.keys(pkg.dependencies ?? {});
  await build({
    configFile: false,
    logLevel: 'warn',
    root: ROOT,
    build: {
      ssr: join(ROOT, 'src/main/sources/extract-worker.ts'),
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rollupOptions: {
        external: (id: string) => id.startsWith('node:') || builtinModules.includes(id) || deps.some((d) => id === d || id.startsWith(`${d}/`)),
        output: { format: 'es', entryFileNames: 'extract-worker.js' },
      },
    },
  });
  return join(outDir, 'extract-worker.js');
}

/** A new, empty folder for this run's worker build (see buildWorker). */
function workerBuildDir(): string {
  const parent = join(ROOT, 'out', 'bench');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, 'extract-worker-'));
}

interface Measured {
  seconds: number;
  delayP99Ms: number;
  growthMb: number;
  peakMb: number;
  result: ExtractionResult;
}

async function measure(file: string, opts: ExtractOptions = {}): Promise<Measured> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let seconds = 0;
  // Timed inside: starting the RSS sampler's thread is the bench's cost, not the extraction's.
  const { result, memory } = await measurePeakRss(async () => {
    const started = performance.now();
    const extracted = await extractFile(file, { timeoutMs: 600_000, ...opts });
    seconds = elapsedMs(started) / 1000;
    return extracted;
  });
  loop.disable();
  if (result.status !== 'ok') throw new Error(`extraction failed: ${result.status} ${result.message ?? ''}`);
  return { seconds, delayP99Ms: loop.percentile(99) / 1e6, growthMb: toMegabytes(memory.peakBytes - memory.startBytes), peakMb: toMegabytes(memory.peakBytes), result };
}

/** pdfjs's code cache folder and whether the workers found it (set by measureAll). */
let codeCacheDir: string | null = null;
let codeCacheNote = 'no code cache';

/** Peak RSS of a fresh process that extracts these files (bench/pdf-rss-probe.ts). */
interface ProbeResult {
  peakMb: number;
  startMb: number;
  /** Each extraction's wall time, in order. */
  seconds: number[];
  /** The most worker threads one extraction used. */
  threads: number;
}

function rssProbe(script: string | null, files: string[]): ProbeResult {
  const env = { ...process.env, FOLIO_BENCH_CODE_CACHE: codeCacheDir ?? '' };
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'pdf-rss-probe.ts'), script ?? '', ...files], { encoding: 'utf8', timeout: 600_000, env });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as ProbeResult;
  } catch {
    throw new Error(`the RSS probe failed: ${child.stderr.slice(-300)}`);
  }
}

/** A pool with no worker at all, as in a process that has just started. */
function emptyPool(script: string | null): void {
  stopPrewarm();
  useWorkerScript(script);
}

/**
 * One Debian PDF: the first file of a session (fresh pool, the spare ready: what a file dropped
 * once the app has settled meets), the same without the spare, and warm (the pool reused; one run
 * discarded so both workers of a split are warm). pdftotext starts a process per file, so its one
 * median is the baseline of all three; the note has warm with one worker thread.
 */
async function debianRows(pdf: DebianPdf, script: string | null, peaks: Measured[]): Promise<BenchRow[]> {
  // pdftotext runs between Folio's, so a busy spell on a shared machine slows both sides alike.
  const out = join(tmpdir(), `folio-bench-pdftotext-${process.pid}.txt`);
  const baselines: number[] = [];
  const pdftotext = () => baselines.push(runPdftotext(pdf.path, out).seconds);
  const first: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  const warmOne: number[] = [];
  try {
    for (let i = 0; i < RUNS; i += 1) {
      emptyPool(script);
      pdftotext();
      cold.push((await measure(pdf.path)).seconds);
      emptyPool(script);
      if (!(await prewarmExtraction())) throw new Error('the spare worker did not start');
      pdftotext();
      const m = await measure(pdf.path);
      first.push(m.seconds);
      peaks.push(m);
    }
    stopPrewarm();
    // Twice: the second worker is warmed after the first file (see extract.ts), then a split finds it ready.
    await measure(pdf.path);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await measure(pdf.path);
    for (let i = 0; i < DEBIAN_RUNS; i += 1) {
      pdftotext();
      const m = await measure(pdf.path);
      warm.push(m.seconds);
      peaks.push(m);
      warmOne.push((await measure(pdf.path, { maxWorkers: 1 })).seconds);
    }
  } finally {
    rmSync(out, { force: true });
  }
  const baseline = median(baselines);
  const pages = pdfPageCount(pdf.path);
  const what = `${pdf.name}.pdf (${pages ?? '?'} pages)`;
  return [
    {
      name: `${what}, first file of a session: fresh pool, spare worker ready, median of ${RUNS}`,
      folio: median(first),
      baseline,
      unit: 's',
      target: '≤ 2.5',
      note: `${pdf.about}; ${codeCacheNote}; without the spare (thread start and pdfjs load paid by the file): ${median(cold).toFixed(2)} s`,
    },
    {
      name: `${what}, warm: workers reused, median of ${DEBIAN_RUNS}`,
      folio: median(warm),
      baseline,
      unit: 's',
      target: '≤ 1.5',
      note: `up to ${Math.max(...peaks.map((m) => m.result.worker?.threads ?? 1))} worker threads; with one: ${median(warmOne).toFixed(2)} s`,
    },
  ];
}

/** Idle workers are retired, so the next extraction starts new threads: pdfjs loaded and JIT-compiled anew. */
function coldPool(script: string | null): void {
  useWorkerScript(script);
}

async function run(): Promise<BenchRow[]> {
  const missing = ['soffice', 'pdftotext'].filter((t) => !has(t));
  if (missing.length > 0) return missingRows(missing);
  buildFixture();

  const buildDir = workerBuildDir();
  try {
    return await measureAll(buildDir);
  } finally {
    stopPrewarm();
    useWorkerScript(null);
    useCodeCacheDir(null);
    rmSync(buildDir, { recursive: true, force: true });
  }
}

async function measureAll(buildDir: string): Promise<BenchRow[]> {
  const pages = pdfPageCount(FIXTURE) ?? PAGES;
  let script: string | null = null;
  let buildNote = 'the built worker bundle';
  try {
    script = await buildWorker(buildDir);
  } catch (err) {
    buildNote = `sources through tsx (building the worker failed: ${err instanceof Error ? err.message : String(err)})`;
  }

  // As on every start of the app but its first: an earlier session's spare stored pdfjs's code
  // cache in the data folder (formats/pdfjs-code-cache.ts). Made here by one spare, then ended.
  const codeCache = join(buildDir, 'code-cache');
  codeCacheDir = codeCache;
  useCodeCacheDir(codeCache);
  if (script) {
    emptyPool(script);
    await prewarmExtraction();
    stopPrewarm();
  }
  codeCacheNote = existsSync(codeCache) ? `pdfjs from the code cache an earlier session stored (${readdirSync(codeCache).length} files)` : 'no code cache';
  const debian = installedDebianPdfs();
  const peaks: Measured[] = [];
  const debianOut: BenchRow[] = [];
  for (const pdf of debian) debianOut.push(...(await debianRows(pdf, script, peaks)));
  if (debian.length > 0) {
    const probe = rssProbe(script, [...debian.map((pdf) => pdf.path), FIXTURE]);
    debianOut.push({
      name: 'peak RSS of a process extracting the Debian PDFs and the 300-page PDF (spare, then two passes each)',
      folio: probe.peakMb,
      baseline: null,
      unit: 'MB',
      target: `< ${RSS_TARGET_MB} MB`,
      note: `a process of its own (bench/pdf-rss-probe.ts, main thread through tsx + worker threads, ${probe.startMb.toFixed(0)} MB before), sampled every 10 ms; in this bench process the worst growth during one Debian file was ${Math.max(...peaks.map((m) => m.growthMb)).toFixed(0)} MB`,
    });
  }
  // The size: what a session extracting one long manual holds, main thread and workers together.
  const refman = refmanFixture();
  const big = rssProbe(script, [refman]);
  debianOut.push({
    name: `peak RSS of a process extracting a ${REFMAN_PAGES.toLocaleString('en-US')}-page reference manual (spare, then twice)`,
    folio: big.peakMb,
    baseline: null,
    unit: 'MB',
    target: `< ${RSS_TARGET_MB} MB`,
    note: `bench/refman-fixture.ts (one document made by LibreOffice, ${(statSync(refman).size / 1e6).toFixed(1)} MB, one set of faces); ${big.startMb.toFixed(0)} MB before; up to ${big.threads} worker threads; the two passes took ${big.seconds.map((s) => s.toFixed(1)).join(' and ')} s`,
  });
  const missingDebian = DEBIAN_PDFS.filter((pdf) => !debian.includes(pdf));
  if (missingDebian.length > 0) {
    debianOut.push({
      name: 'Debian PDFs not installed',
      folio: missingDebian.length,
      baseline: null,
      unit: 'files',
      note: missingDebian.map((pdf) => `${pdf.name} (apt-get install ${pdf.debianPackage})`).join(', '),
    });
  }
  emptyPool(script);

  // A one-page extraction on new threads: the fixed cost of a worker (thread start, loading pdfjs).
  const tiny = join(tmpdir(), `folio-bench-pdf-extract-tiny-${process.pid}.pdf`);
  writeFileSync(tiny, minimalPdf([['One page of text for timing the worker start-up.']]));
  const startup = async (from: string | null) => {
    coldPool(from);
    const started = performance.now();
    await extractFile(tiny);
    return elapsedMs(started);
  };
  const tsxStartupMs = await startup(null);
  const startupMs = await startup(script);

  const all: Measured[] = [];
  const cold: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    coldPool(script);
    const m = await measure(FIXTURE);
    cold.push(m.seconds);
    all.push(m);
  }
  // The pool is warm now: the workers that did the last run stay for the next.
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const m = await measure(FIXTURE);
    warm.push(m.seconds);
    all.push(m);
  }
  const warmOne: number[] = [];
  for (let i = 0; i < RUNS; i += 1) warmOne.push((await measure(FIXTURE, { maxWorkers: 1 })).seconds);
  coldPool(null);
  const tsxCold = (await measure(FIXTURE)).seconds;
  rmSync(tiny, { force: true });

  const out = join(tmpdir(), `folio-bench-pdftotext-${process.pid}.txt`);
  const baselineRuns: BaselineRun[] = [];
  try {
    for (let i = 0; i < RUNS; i += 1) baselineRuns.push(runPdftotext(FIXTURE, out));
  } finally {
    rmSync(out, { force: true });
  }
  const baselineSeconds = median(baselineRuns.map((r) => r.seconds));
  const baselineRss = baselineRuns.map((r) => r.maxRssMb).filter((v): v is number => v !== null);
  const warmSeconds = median(warm);
  const threads = Math.max(...all.map((m) => m.result.worker?.threads ?? 1));
  const workerHeapMb = Math.max(...all.map((m) => toMegabytes(m.result.worker?.peakHeapBytes ?? 0)));
  const workerMaxRssMb = Math.max(...all.map((m) => toMegabytes(m.result.worker?.maxRssBytes ?? 0)));

  return [
    ...debianOut,
    {
      name: `extract ${pages}-page PDF (CJK + English), cold: new worker threads, median of ${RUNS}`,
      folio: median(cold),
      baseline: baselineSeconds,
      unit: 's',
      target: '≤ 3.0',
      note: `Folio: ${buildNote}, ${codeCacheNote}, up to ${threads} worker threads, incl. start-up (~${Math.round(startupMs)} ms for a 1-page PDF; ~${Math.round(tsxStartupMs)} ms from source through tsx, where this file takes ${tsxCold.toFixed(2)} s)`,
    },
    {
      name: `extract ${pages}-page PDF (CJK + English), warm: workers reused, median of ${RUNS}`,
      folio: warmSeconds,
      baseline: baselineSeconds,
      unit: 's',
      target: '≤ 3.0',
      note: `what every file after the first costs; with one worker thread instead of two: ${median(warmOne).toFixed(2)} s`,
    },
    { name: 'pages per second (warm)', folio: pages / warmSeconds, baseline: pages / baselineSeconds, unit: 'pages/s' },
    {
      name: 'peak RSS growth during extraction',
      folio: Math.max(...all.map((m) => m.growthMb)),
      baseline: baselineRss.length > 0 ? Math.max(...baselineRss) : null,
      unit: 'MB',
      note: `Folio: worst growth of the whole process over the cold and warm runs, sampled every 10 ms, new threads included (worker heap peak ${workerHeapMb.toFixed(0)} MB; process max RSS seen by a worker ${workerMaxRssMb.toFixed(0)} MB). pdftotext: its whole max RSS (GNU time)`,
    },
    {
      name: 'main-thread event-loop delay p99 during extraction',
      folio: Math.max(...all.map((m) => m.delayP99Ms)),
      baseline: null,
      unit: 'ms',
      target: '< 50 ms',
      note: 'worst p99 of the cold and warm runs; the work happens in worker threads, so the UI thread stays free',
    },
  ];
}

const bench: Bench = { name: 'pdf-extract', run };
export default bench;
