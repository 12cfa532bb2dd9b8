// Proposal rendering: a ~60-page Chinese/English NSFC proposal rendered by Folio, and the same
// content built by python-docx (bench/python_docx_render.py) as the baseline: time and peak memory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDocument } from '../src/main/renderers/document';
import { sofficePath } from '../src/main/renderers/soffice';
import { measurePeakRss, toMegabytes } from './memory-sampler';
import { writeProposalFolder } from './proposal-fixture';
import { elapsedMs, median } from './stats';
import { type Bench, type BenchRow } from './types';

const SHAPE = { subsectionsPerChapter: 3, paragraphsPerSubsection: 4 };
const WARM_RUNS = 3;
const PYTHON_RUNS = 3;
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'python_docx_render.py');
// pyenv and virtualenvs shadow the system interpreter that Debian's python3-docx installs into.
const PYTHON_CANDIDATES = ['python3', '/usr/bin/python3'];

interface PythonRun {
  buildSeconds: number;
  wallSeconds: number;
  memoryMb: number;
}

function findPythonWithDocx(): string | null {
  for (const python of PYTHON_CANDIDATES) {
    const probe = spawnSync(python, ['-c', 'import docx'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return null;
}

function isPythonReport(value: unknown): value is { build_seconds: number; start_rss_mb: number; maxrss_mb: number } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.build_seconds === 'number' && typeof v.start_rss_mb === 'number' && typeof v.maxrss_mb === 'number';
}

function runPython(python: string, folder: string, outPath: string): PythonRun {
  const started = performance.now();
  const child = spawnSync(python, [SCRIPT, folder, outPath], { encoding: 'utf8' });
  const wallSeconds = elapsedMs(started) / 1000;
  if (child.status !== 0) throw new Error(`python-docx render failed (${child.status ?? child.signal}): ${child.stderr.slice(-500)}`);
  const report: unknown = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '');
  if (!isPythonReport(report)) throw new Error(`python_docx_render.py printed an unexpected report: ${child.stdout.slice(0, 200)}`);
  return { buildSeconds: report.build_seconds, wallSeconds, memoryMb: report.maxrss_mb - report.start_rss_mb };
}

/**
 * One render with the pagination pass (LibreOffice is slow to start: one run, in a warm process), as
 * its own rows beside python-docx: the time, and the pages laid out against the estimate. None
 * without LibreOffice.
 */
async function renderPaginated(folder: string, outDir: string, pythonBuild: number | null): Promise<BenchRow[]> {
  if (sofficePath() === null) return [];
  const started = performance.now();
  const result = await renderDocument(folder, { outDir, fileName: 'paged.docx' });
  const seconds = elapsedMs(started) / 1000;
  const pages = result.report.pages;
  if (pages?.mode !== 'rendered') throw new Error(`the pagination pass did not lay the pages out: ${pages?.reason ?? 'no pages in the report'}`);
  return [
    {
      name: 'render with the LibreOffice pagination pass',
      folio: seconds,
      baseline: pythonBuild,
      unit: 's',
      target: '—',
      note: 'one run: build, LibreOffice → PDF (sandboxed), pdfjs read-back, rebuild with the contents page numbers; python-docx writes no page numbers',
    },
    { name: 'pages laid out (baseline: the estimate)', folio: pages.total, baseline: result.pageEstimate, unit: 'pages', target: '—', note: `${pages.body} body pages` },
  ];
}

async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'folio-bench-document-'));
  try {
    const folder = join(root, 'proposal');
    const { cjkChars } = writeProposalFolder(folder, SHAPE);
    const outDir = join(root, 'out');

    const coldStart = performance.now();
    const cold = await measurePeakRss(() => renderDocument(folder, { outDir, fileName: 'cold.docx', paginate: false }));
    const coldSeconds = elapsedMs(coldStart) / 1000;
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const started = performance.now();
      await renderDocument(folder, { outDir, fileName: `warm-${i}.docx`, paginate: false });
      warm.push(elapsedMs(started) / 1000);
    }
    const folioMemoryMb = toMegabytes(cold.memory.peakBytes - cold.memory.startBytes);
    const pages = cold.result.pageEstimate;

    const python = findPythonWithDocx();
    const runs = python ? Array.from({ length: PYTHON_RUNS }, (_, i) => runPython(python, folder, join(outDir, `python-${i}.docx`))) : [];
    const pyBuild = runs.length > 0 ? median(runs.map((r) => r.buildSeconds)) : null;
    const pyMemory = runs.length > 0 ? median(runs.map((r) => r.memoryMb)) : null;
    const pyNote =
      runs.length > 0
        ? `python-docx: build time excl. interpreter start-up (wall incl. start-up ${median(runs.map((r) => r.wallSeconds)).toFixed(2)} s), median of ${PYTHON_RUNS}`
        : 'python3-docx not installed';
    const paged = await renderPaginated(folder, outDir, pyBuild);
    const parity = 'baseline has no TOC, heading numbering, footnotes or quality report';

    return [
      {
        name: `render ${pages}-page proposal, warm`,
        folio: median(warm),
        baseline: pyBuild,
        unit: 's',
        target: '≤ 1.0',
        note: `Folio median of ${WARM_RUNS} in-process renders; ${pyNote}`,
      },
      { name: 'render, first in process (cold)', folio: coldSeconds, baseline: pyBuild, unit: 's', target: '≤ 1.0', note: `Folio's JIT and font metrics warm up here; ${parity}` },
      {
        name: 'peak memory during render',
        folio: folioMemoryMb,
        baseline: pyMemory,
        unit: 'MB',
        target: '≤ 1.0',
        note: 'growth over RSS at start: Folio sampled every 10 ms (cold render); python: peak RSS (VmHWM) minus RSS after imports',
      },
      { name: 'page estimate', folio: pages, baseline: null, unit: 'pages', target: '~60', note: `${cjkChars.toLocaleString('en-US')} CJK characters + English, 9 chapters, lists and tables` },
      ...paged,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'document', run };
export default bench;
