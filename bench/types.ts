// The shape every bench/*.bench.ts file exports, and the rows the runner prints.

export interface BenchRow {
  /** The metric, e.g. "ms per tool round trip". */
  name: string;
  folio: number;
  /** The same measurement for the reference implementation; null when there is none. */
  baseline: number | null;
  unit: string;
  /** What the issue asks for, e.g. "< 2 ms" or "≤ 1.0" (a ratio). */
  target?: string;
  note?: string;
}

export interface Bench {
  name: string;
  run: () => Promise<BenchRow[]>;
}
