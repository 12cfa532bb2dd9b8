// Library search on a 5,000-page library: the installed Debian PDFs (DEBIAN_PDFS: a Chinese CID-font
// book and two English manuals) extracted by Folio, their real pages repeated with variations (each
// copy's lines rotated and tagged) to 5,000 pages. Indexing: pages/s inserted into library_pages
// with the FTS5 triggers, one transaction per file as the indexer does. Queries: searchLibrary p50
// and p99 for Chinese, English and mixed queries. The baseline is a plain `grep -rFic` (fixed
// string, case-insensitive, count per file) over the same text as one file per page: unranked,
// no snippets, one process per query, as a person would search extracted text by hand.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addLibraryFile, addProject, extractPdfPages, openTestLibraryDb } from '../src/main/library/testing';
import { searchLibrary, type Embedder } from '../src/main/library/search';
import { toBlob } from '../src/main/library/vectors';
import { stopPrewarm } from '../src/main/sources/extract';
import { installedDebianPdfs } from '../src/main/sources/testing';
import { elapsedMs, median } from './stats';
import { type Bench, type BenchRow } from './types';

const PAGES = 5_000;
const RUNS = 40;
const GREP_RUNS = 10;
const DIMENSIONS = 1536;

/** Query as typed, and the fixed string grep gets (grep has no multi-term query). */
const QUERIES: { query: string; grep: string }[] = [
  { query: '宏包', grep: '宏包' },
  { query: '值得注意的是', grep: '值得注意的是' },
  { query: '数学公式 排版', grep: '数学公式' },
  { query: 'update-mime-database', grep: 'update-mime-database' },
  { query: 'parser', grep: 'parser' },
  { query: '"The parser is case sensitive"', grep: 'The parser is case sensitive' },
  { query: 'LaTeX 宏包', grep: 'LaTeX' },
];

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Copy `k` of a page: lines rotated by k and a tag, so no two copies have the same text. */
function variant(text: string, k: number): string {
  if (k === 0) return text;
  const lines = text.split('\n');
  const r = k % Math.max(1, lines.length);
  return [`(副本 ${k} copy ${k})`, ...lines.slice(r), ...lines.slice(0, r)].join('\n');
}

function randomVector(seed: number): Float32Array {
  const v = new Float32Array(DIMENSIONS);
  let x = seed * 2654435761;
  for (let i = 0; i < DIMENSIONS; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    v[i] = x / 2147483648 - 0.5;
  }
  return v;
}

async function run(): Promise<BenchRow[]> {
  const pdfs = installedDebianPdfs();
  if (pdfs.length === 0) throw new Error('no Debian PDF installed (texlive-lang-chinese, libtasn1-doc, shared-mime-info)');
  const sources: { name: string; pages: string[] }[] = [];
  for (const pdf of pdfs) sources.push({ name: pdf.name, pages: await extractPdfPages(pdf.path) });
  stopPrewarm();

  // File copies until 5,000 pages (the last copy cut short).
  const files: { path: string; pages: string[] }[] = [];
  let total = 0;
  for (let k = 0; total < PAGES; k++) {
    for (const src of sources) {
      if (total >= PAGES) break;
      const pages = src.pages.slice(0, PAGES - total).map((t) => variant(t, k));
      files.push({ path: `copy-${k}/${src.name}.pdf`, pages });
      total += pages.length;
    }
  }
  const chars = files.reduce((s, f) => s + f.pages.reduce((n, p) => n + p.length, 0), 0);

  const lib = openTestLibraryDb();
  const textDir = mkdtempSync(join(tmpdir(), 'folio-library-grep-'));
  try {
    const project = addProject(lib.db, 'bench');
    const t0 = performance.now();
    for (const f of files) addLibraryFile(lib.db, project, f.path, f.pages);
    const indexMs = elapsedMs(t0);

    const t1 = performance.now();
    files.forEach((f, i) => {
      const dir = join(textDir, String(i));
      mkdirSync(dir);
      f.pages.forEach((p, n) => writeFileSync(join(dir, `${n + 1}.txt`), p));
    });
    const writeMs = elapsedMs(t1);

    const rows: BenchRow[] = [
      {
        name: `indexing pages/s (${total} pages, ${(chars / 1e6).toFixed(1)} M chars)`,
        folio: Math.round((total / indexMs) * 1000),
        baseline: Math.round((total / writeMs) * 1000),
        unit: 'pages/s',
        note: `baseline: writing one text file per page (grep's corpus); ${files.length} files, one transaction each`,
      },
    ];

    for (const { query, grep } of QUERIES) {
      const input = { libraries: [project], query, limit: 10 };
      const first = await searchLibrary(lib.db, input, null);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await searchLibrary(lib.db, input, null);
        times.push(elapsedMs(t));
      }
      const grepTimes: number[] = [];
      let grepFiles = 0;
      for (let i = 0; i < GREP_RUNS; i++) {
        const t = performance.now();
        let out = '';
        try {
          out = execFileSync('grep', ['-rFic', '--', grep, textDir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        } catch (err) {
          // grep exits 1 when nothing matched
          out = (err as { stdout?: string }).stdout ?? '';
        }
        grepTimes.push(elapsedMs(t));
        grepFiles = out.split('\n').filter((l) => /:[1-9]\d*$/u.test(l)).length;
      }
      const note = `${first.hits.length} hits shown (limit 10), grep: ${grepFiles} pages`;
      rows.push(
        { name: `query ${query} p50`, folio: median(times), baseline: median(grepTimes), unit: 'ms', note },
        { name: `query ${query} p99`, folio: percentile(times, 99), baseline: percentile(grepTimes, 99), unit: 'ms' },
      );
    }

    // Semantic part of a hybrid query: brute-force cosine over every page's vector (1536 dims, as
    // text-embedding-3-small), with an embedder that answers at once so only Folio's side is timed.
    const ids = lib.db.prepare<[], { id: number }>('SELECT id FROM library_pages').all();
    const setVector = lib.db.prepare('UPDATE library_pages SET embedding = ?, embedding_model = ? WHERE id = ?');
    lib.db.transaction(() => ids.forEach(({ id }) => setVector.run(toBlob(randomVector(id)), 'bench', id)))();
    const embedder: Embedder = { model: 'bench', embed: (texts) => Promise.resolve(texts.map(() => randomVector(7))) };
    const hybridInput = { libraries: [project], query: '数学公式 排版', limit: 10 };
    const hybrid: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const r = await searchLibrary(lib.db, hybridInput, embedder);
      hybrid.push(elapsedMs(t));
      if (r.mode !== 'hybrid') throw new Error(`hybrid query answered ${r.mode}: ${r.note ?? ''}`);
    }
    const textOnly = rows.find((r) => r.name === 'query 数学公式 排版 p50')?.folio ?? null;
    rows.push({
      name: `hybrid query p50 (${ids.length} vectors × ${DIMENSIONS} dims, brute force)`,
      folio: median(hybrid),
      baseline: textOnly,
      unit: 'ms',
      note: `p99 ${percentile(hybrid, 99).toFixed(1)} ms; baseline: the same query, text only`,
    });
    return rows;
  } finally {
    lib.close();
    rmSync(textDir, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'library', run };
export default bench;
