// The period a usage report covers. Months are calendar months in UTC, so every worker, whatever
// its time zone, closes a month at the same instant and the tokens quota resets for all at once.
import { USAGE_MONTH_PATTERN } from '../../shared/contract/usage';
import { FolioError } from '../../shared/folio-error';

export interface UsagePeriod {
  /** `2026-11` for a month, else `<since ISO>/<until ISO>`. */
  label: string;
  /** ms since the epoch, inclusive. */
  since: number;
  /** ms since the epoch, exclusive. */
  until: number;
}

/** A month (`YYYY-MM`), or a range in ms (`until` defaults to now); neither means this month. */
export type UsagePeriodInput = { month: string } | { since: number; until?: number } | undefined;

export function monthOf(at: number): UsagePeriod {
  const date = new Date(at);
  return monthPeriod(date.getUTCFullYear(), date.getUTCMonth());
}

function monthPeriod(year: number, monthIndex: number): UsagePeriod {
  return {
    label: `${String(year).padStart(4, '0')}-${String(monthIndex + 1).padStart(2, '0')}`,
    since: Date.UTC(year, monthIndex, 1),
    until: Date.UTC(year, monthIndex + 1, 1),
  };
}

export function resolvePeriod(input: UsagePeriodInput, now: number): UsagePeriod {
  if (input === undefined) return monthOf(now);
  if ('month' in input) {
    const match = USAGE_MONTH_PATTERN.exec(input.month);
    if (!match) throw new FolioError('invalid_input', `period: expected YYYY-MM, got "${input.month}"`);
    return monthPeriod(Number(match[1]), Number(match[2]) - 1);
  }
  const until = input.until ?? now;
  return { label: `${new Date(input.since).toISOString()}/${new Date(until).toISOString()}`, since: input.since, until };
}

/** `2027-01-01`: the day a month's quota starts again. */
export function resetDay(period: UsagePeriod): string {
  return new Date(period.until).toISOString().slice(0, 10);
}
