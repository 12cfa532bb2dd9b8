// `npm run bench [-- name ...]`: runs every bench/*.bench.ts (or those whose file name contains one
// of the arguments), one after another, each in its own Node process, and prints one table of the
// results. A bench that throws or crashes becomes an error row; the exit code is non-zero only when
// every bench failed. The results also go to bench/results/latest.json.
import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchOutcome, tableLines } from './table';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const SUFFIX = '.bench.ts';

function benchFiles(filters: readonly string[]): string[] {
  const files = readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith(SUFFIX))
    .sort();
  if (filters.length === 0) return files;
  return files.filter((f) => filters.some((filter) => f.slice(0, -SUFFIX.length).includes(filter)));
}

function isOutcome(value: unknown): value is BenchOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.bench === 'string' && Array.isArray(v.rows) && typeof v.durationMs === 'number';
}

function runInChild(file: string): Promise<BenchOutcome> {
  const label = file.slice(0, -SUFFIX.length);
  const started = performance.now();
  return new Promise((resolve) => {
    let outcome: BenchOutcome | null = null;
    const child = fork(join(BENCH_DIR, 'run-one.ts'), [join(BENCH_DIR, file)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (message: unknown) => {
      if (isOutcome(message)) outcome = message;
    });
    const fail = (error: string) => resolve({ bench: label, rows: [], error, durationMs: performance.now() - started });
    child.on('error', (err) => fail(`could not start: ${err.message}`));
    child.on('exit', (code, signal) => {
      if (outcome) resolve(outcome);
      else fail(`the bench process exited (${signal ?? `code ${code}`}) without a result`);
    });
  });
}

async function main(): Promise<number> {
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const files = benchFiles(filters);
  if (files.length === 0) {
    process.stderr.write(`bench: no bench matches ${filters.join(', ')}\n`);
    return 1;
  }
  const outcomes: BenchOutcome[] = [];
  for (const file of files) {
    process.stderr.write(`bench: ${file} …\n`);
    const outcome = await runInChild(file);
    process.stderr.write(`bench: ${outcome.bench} ${outcome.error ? 'failed' : 'done'} in ${(outcome.durationMs / 1000).toFixed(1)} s\n`);
    outcomes.push(outcome);
  }

  process.stdout.write(`\n${tableLines(outcomes).join('\n')}\n`);

  const resultsDir = join(BENCH_DIR, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const machine = { node: process.version, platform: `${platform()} ${release()}`, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown' };
  writeFileSync(join(resultsDir, 'latest.json'), `${JSON.stringify({ date: new Date().toISOString(), machine, outcomes }, null, 2)}\n`);
  return outcomes.every((o) => o.error !== undefined) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
