// Runs one bench file in this (fresh) process and sends its outcome to the parent runner over IPC.
// A process per bench keeps one bench's heap growth and JIT warm-up out of the next one's figures.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchOutcome } from './table';
import { type Bench, type BenchRow } from './types';

function isBench(value: unknown): value is Bench {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.name === 'string' && typeof candidate.run === 'function';
}

function isRow(value: unknown): value is BenchRow {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return typeof row.name === 'string' && typeof row.folio === 'number' && (row.baseline === null || typeof row.baseline === 'number') && typeof row.unit === 'string';
}

export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

async function runBenchFile(path: string): Promise<BenchOutcome> {
  const started = performance.now();
  let label = basename(path).replace(/\.bench\.ts$/, '');
  try {
    const mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
    if (!isBench(mod.default)) throw new Error(`${basename(path)} must export default { name, run }`);
    label = mod.default.name;
    const rows: unknown = await mod.default.run();
    if (!Array.isArray(rows) || !rows.every(isRow)) throw new Error(`${basename(path)}: run() must resolve to BenchRow[]`);
    return { bench: label, rows, durationMs: performance.now() - started };
  } catch (err) {
    return { bench: label, rows: [], error: errorText(err), durationMs: performance.now() - started };
  }
}

const path = process.argv[2];
if (!path || !process.send) {
  process.stderr.write('run-one.ts is started by bench/run.ts\n');
  process.exit(2);
}
const outcome = await runBenchFile(path);
// Exit once the message is out: benches may leave handles (servers, workers) behind on failure.
process.send(outcome, () => process.exit(0));
