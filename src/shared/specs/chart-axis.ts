// The value axis of a planned chart, decided once in the plan so the .pptx (pptxgenjs's min, max and
// major unit) and the preview (its tick marks) draw the same scale. Left to itself, PowerPoint or
// LibreOffice picks its own scale, and labels its ticks with the data's decimals ("20.0" on an axis
// of whole twenties because one series has a 0.3).

export interface ValueAxis {
  min: number;
  max: number;
  /** Distance between ticks; (max - min) / step ticks after the first. */
  step: number;
  /** Excel number format of the tick labels: the step's decimals, the data format's grouping and unit. */
  numberFormat: string;
}

/** At most this many intervals between ticks: a readable axis on a slide. */
const MAX_INTERVALS = 6;
const NICE_MULTIPLES = [1, 2, 2.5, 5];
/** The top tick stays this fraction of a step above the largest value, so a bar's label has room. */
const HEADROOM = 0.1;
/**
 * Below the lowest negative value the label hangs inside the plot, above the category labels at its
 * low edge: it needs about a line of text, half a step of a six-interval axis on a slide.
 */
const FOOTROOM = 0.5;

/** Decimals a step needs to be written exactly (2.5 → 1, 0.25 → 2), at most 3. */
function stepDecimals(step: number): number {
  for (let d = 0; d < 3; d += 1) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-9) return d;
  return 3;
}

/** Rounds away the float noise of `k * step` (0.30000000000000004). */
const clean = (value: number, decimals: number): number => Number(value.toFixed(decimals + 2));

/**
 * A scale from zero (or below it, for negative data) to just past the largest value: the smallest
 * nice step (1, 2, 2.5 or 5 times a power of ten) that covers the data in at most six intervals.
 * `dataFormat` is the data labels' format (plan/chart.ts numberFormatFor); the ticks keep its
 * grouping and percent or unit suffix, with the step's decimals instead of the data's. `labelRoom`:
 * the share of the axis kept free past the largest value (0..0.5), where the label outside its bar or
 * point is drawn, so the label stays in the plot instead of rising into the chart's title.
 */
export function valueAxisFor(values: readonly number[], dataFormat: string, labelRoom = 0): ValueAxis {
  const finite = values.filter((v) => Number.isFinite(v));
  const high = Math.max(0, ...finite);
  const low = Math.min(0, ...finite);
  if (high === low) return { min: 0, max: 1, step: 0.2, numberFormat: withDecimals(dataFormat, 1) };
  let power = 10 ** Math.floor(Math.log10((high - low) / MAX_INTERVALS));
  for (;;) {
    for (const multiple of NICE_MULTIPLES) {
      const step = multiple * power;
      const decimals = stepDecimals(step);
      let min = clean(Math.floor(low / step) * step, decimals);
      if (low < 0 && low - min < step * FOOTROOM) min = clean(min - step, decimals);
      let max = clean(Math.ceil(high / step) * step, decimals);
      if (high > 0 && max - high < step * HEADROOM) max = clean(max + step, decimals);
      while (high > 0 && max - high < labelRoom * (max - min)) max = clean(max + step, decimals);
      if ((max - min) / step <= MAX_INTERVALS + 1e-9) return { min, max, step, numberFormat: withDecimals(dataFormat, decimals) };
    }
    power *= 10;
  }
}

/** `#,##0.0" 小时"` with 0 decimals → `#,##0" 小时"`: the digits part changed, the rest kept. */
export function withDecimals(format: string, decimals: number): string {
  const digits = decimals > 0 ? `0.${'0'.repeat(decimals)}` : '0';
  return format.replace(/0(?:\.0+)?/u, digits);
}

/** The tick values of an axis, min to max inclusive. */
export function axisTicks(axis: Pick<ValueAxis, 'min' | 'max' | 'step'>): number[] {
  const count = Math.round((axis.max - axis.min) / axis.step);
  const decimals = stepDecimals(axis.step);
  return Array.from({ length: count + 1 }, (_, i) => clean(axis.min + i * axis.step, decimals));
}
