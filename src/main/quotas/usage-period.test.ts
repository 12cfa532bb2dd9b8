// Usage periods are calendar months in UTC, whatever the worker's time zone.
import { describe, expect, it } from 'vitest';
import { monthOf, resetDay, resolvePeriod } from './usage-period';

describe('usage periods', () => {
  it('run from the first of a month at midnight UTC to the first of the next, across a year end', () => {
    const lastMs = Date.UTC(2027, 0, 1) - 1;
    expect(monthOf(lastMs)).toEqual({ label: '2026-12', since: Date.UTC(2026, 11, 1), until: Date.UTC(2027, 0, 1) });
    expect(monthOf(lastMs + 1).label).toBe('2027-01');
    expect(resetDay(monthOf(lastMs))).toBe('2027-01-01');
    expect(resolvePeriod({ month: '2028-02' }, 0)).toEqual({ label: '2028-02', since: Date.UTC(2028, 1, 1), until: Date.UTC(2028, 2, 1) });
  });

  it('default to the month of now, and take a range whose end defaults to now', () => {
    expect(resolvePeriod(undefined, Date.UTC(2026, 4, 31, 23)).label).toBe('2026-05');
    expect(resolvePeriod({ since: 1000 }, 5000)).toEqual({ label: '1970-01-01T00:00:01.000Z/1970-01-01T00:00:05.000Z', since: 1000, until: 5000 });
  });

  it('refuse a malformed month as invalid input', () => {
    expect(() => resolvePeriod({ month: '2026-13' }, 0)).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(() => resolvePeriod({ month: 'May' }, 0)).toThrow(/expected YYYY-MM/);
  });
});
