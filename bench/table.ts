// Formats bench rows as one aligned plain-text table.
import { type BenchRow } from './types';

export interface BenchOutcome {
  bench: string;
  rows: BenchRow[];
  error?: string;
  durationMs: number;
}

const HEADER = ['benchmark', 'metric', 'folio', 'baseline', 'ratio (folio/baseline)', 'target', 'note'];

/** Few enough digits to read at a glance, enough to see a difference between runs. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (Number.isInteger(value)) return String(value);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  if (abs === 0) return '0';
  return value.toPrecision(3);
}

function withUnit(value: number | null, unit: string): string {
  if (value === null) return '—';
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

export function ratio(row: BenchRow): number | null {
  if (row.baseline === null || row.baseline === 0) return null;
  return row.folio / row.baseline;
}

export function tableLines(outcomes: readonly BenchOutcome[]): string[] {
  const body: string[][] = [];
  for (const outcome of outcomes) {
    if (outcome.error !== undefined) {
      body.push([outcome.bench, 'error', '—', '—', '—', '', outcome.error.replace(/\s+/g, ' ').slice(0, 160)]);
      continue;
    }
    for (const row of outcome.rows) {
      const r = ratio(row);
      body.push([outcome.bench, row.name, withUnit(row.folio, row.unit), withUnit(row.baseline, row.unit), r === null ? '—' : `${r.toFixed(2)}×`, row.target ?? '', row.note ?? '']);
    }
  }
  const all = [HEADER, ...body];
  // The note is last and free text: it is not padded.
  const widths = HEADER.map((_, col) => Math.max(...all.map((cells) => cells[col].length)));
  const numeric = new Set([2, 3, 4]);
  const line = (cells: string[]) =>
    cells
      .map((cell, col) => (col === cells.length - 1 ? cell : numeric.has(col) ? cell.padStart(widths[col]) : cell.padEnd(widths[col])))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((w, col) => '-'.repeat(col === widths.length - 1 ? Math.min(w, 4) : w)).join('-|-');
  return [line(HEADER), rule, ...body.map(line)];
}
