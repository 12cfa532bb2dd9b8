// Library search on a 5,000-page library: the installed Debian PDFs (DEBIAN_PDFS: a Chinese CID-font
// book and two English manuals) extracted by Folio, their real pages repeated with variations (each
// copy's lines rotated and tagged) to 5,000 pages. Indexing: pages/s inserted into library_pages
// with the FTS5 triggers, one transaction per file as the indexer does. Queries: searchLibrary p50
// and p99 for Chinese, English and mixed queries. The baseline is a plain `grep -rFic` (fixed
// string, case-insensitive, count per file) over the same text as one file per page: unranked,
// no snippets, one process per query, as a person would search extracted text by hand. Where
// PostgreSQL is installed, the same library on a throwaway cluster (the team service's store):
// indexing and each query's p50 against SQLite's, the runs alternating.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addLibraryFile, addProject, extractPdfPages, openTestLibraryDb } from '../src/main/library/testing';
import { searchLibrary, type Embedder } from '../src/main/library/search';
import { toBlob } from '../src/main/library/vectors';
import { stopPrewarm } from '../src/main/sources/extract';
import { LOCAL_SCOPE, type StorePort } from '../src/main/store/port';
import { openPgStore, type PgBackend } from '../src/main/store/postgres';
import { postgresSkipReason, startPgCluster, type PgCluster } from '../testing/postgres/cluster';
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
  const pgSkip = postgresSkipReason();
  let cluster: PgCluster | null = null;
  let pgStore: PgBackend | null = null;
  try {
    const project = await addProject(lib.port, 'bench');
    const t0 = performance.now();
    for (const f of files) await addLibraryFile(lib.port, project, f.path, f.pages);
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

    // PostgreSQL (the team service): the same library on a throwaway cluster (fsync off, as the
    // tests'), pg_trgm installed by the migration; its queries alternate with SQLite's.
    let pg: { port: StorePort; project: string } | null = null;
    if (pgSkip === null) {
      cluster = await startPgCluster();
      pgStore = await openPgStore(cluster.url, { poolSize: 4 });
      const port = pgStore.scope(LOCAL_SCOPE);
      const pgProject = await addProject(port, 'bench');
      const t2 = performance.now();
      for (const f of files) await addLibraryFile(port, pgProject, f.path, f.pages);
      const pgIndexMs = elapsedMs(t2);
      // Fresh statistics, as autovacuum would give a library this size soon after it is filled.
      await pgStore.pool.query('ANALYZE library_pages; ANALYZE library_files');
      pg = { port, project: pgProject };
      rows.push({
        name: 'PostgreSQL: indexing pages/s',
        folio: Math.round((total / pgIndexMs) * 1000),
        baseline: rows[0].folio,
        unit: 'pages/s',
        note: 'baseline: SQLite (FTS5 triggers); PostgreSQL: one INSERT … unnest per file, pg_trgm GIN index',
      });
    }

    const pgRows: BenchRow[] = [];
    for (const { query, grep } of QUERIES) {
      const input = { libraries: [project], query, limit: 10 };
      const first = await searchLibrary(lib.port, input, null);
      const pgInput = pg ? { ...input, libraries: [pg.project] } : null;
      const pgFirst = pg && pgInput ? await searchLibrary(pg.port, pgInput, null) : null;
      const times: number[] = [];
      const pgTimes: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await searchLibrary(lib.port, input, null);
        times.push(elapsedMs(t));
        if (pg && pgInput) {
          const tp = performance.now();
          await searchLibrary(pg.port, pgInput, null);
          pgTimes.push(elapsedMs(tp));
        }
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
      if (pgFirst) {
        const same = pgFirst.hits.filter((h, i) => h.page === first.hits[i]?.page && h.path === first.hits[i]?.path).length;
        pgRows.push({
          name: `PostgreSQL: query ${query} p50`,
          folio: median(pgTimes),
          baseline: median(times),
          unit: 'ms',
          note: `baseline: SQLite; p99 ${percentile(pgTimes, 99).toFixed(1)} vs ${percentile(times, 99).toFixed(1)} ms; ${pgFirst.hits.length} hits, ${same} at the same rank as SQLite's`,
        });
      }
    }

    // Semantic part of a hybrid query: brute-force cosine over every page's vector (1536 dims, as
    // text-embedding-3-small), with an embedder that answers at once so only Folio's side is timed.
    const vectors = await giveEveryPageAVector(lib.port);
    const embedder: Embedder = { model: 'bench', embed: (texts) => Promise.resolve(texts.map(() => randomVector(7))) };
    const hybridInput = { libraries: [project], query: '数学公式 排版', limit: 10 };
    const hybrid: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const r = await searchLibrary(lib.port, hybridInput, embedder);
      hybrid.push(elapsedMs(t));
      if (r.mode !== 'hybrid') throw new Error(`hybrid query answered ${r.mode}: ${r.note ?? ''}`);
    }
    const textOnly = rows.find((r) => r.name === 'query 数学公式 排版 p50')?.folio ?? null;
    rows.push({
      name: `hybrid query p50 (${vectors} vectors × ${DIMENSIONS} dims, brute force)`,
      folio: median(hybrid),
      baseline: textOnly,
      unit: 'ms',
      note: `p99 ${percentile(hybrid, 99).toFixed(1)} ms; baseline: the same query, text only`,
    });
    if (pg) {
      await giveEveryPageAVector(pg.port);
      const pgHybrid: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        const r = await searchLibrary(pg.port, { ...hybridInput, libraries: [pg.project] }, embedder);
        pgHybrid.push(elapsedMs(t));
        if (r.mode !== 'hybrid') throw new Error(`PostgreSQL hybrid query answered ${r.mode}: ${r.note ?? ''}`);
      }
      pgRows.push({
        name: 'PostgreSQL: hybrid query p50',
        folio: median(pgHybrid),
        baseline: median(hybrid),
        unit: 'ms',
        note: `baseline: SQLite; p99 ${percentile(pgHybrid, 99).toFixed(1)} ms; the vectors cross the wire as bytea`,
      });
    } else {
      pgRows.push({ name: 'PostgreSQL rows', folio: NaN, baseline: null, unit: '', note: `skipped: ${pgSkip ?? ''}` });
    }
    return [...rows, ...pgRows];
  } finally {
    lib.close();
    await pgStore?.close();
    await cluster?.stop();
    rmSync(textDir, { recursive: true, force: true });
  }
}

/** A random vector for every page, stored through the port as the backfill does; how many. */
async function giveEveryPageAVector(port: StorePort): Promise<number> {
  let n = 0;
  for (let after = 0; ; ) {
    const pages = await port.library.pagesToEmbed('bench', after, 500);
    if (pages.length === 0) return n;
    n += await port.library.storeVectors('bench', pages.map((p) => ({ ...p, embedding: toBlob(randomVector(p.id)) })));
    after = pages[pages.length - 1]?.id ?? after;
  }
}

const bench: Bench = { name: 'library', run };
export default bench;
