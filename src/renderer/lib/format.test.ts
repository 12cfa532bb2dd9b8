import { describe, expect, it } from 'vitest';
import { formatBytes, formatCost, formatDuration, formatTokens, toDate } from './format';

describe('format', () => {
  it('abbreviates token counts', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1234)).toBe('1.2k');
    expect(formatTokens(45_600)).toBe('46k');
    expect(formatTokens(2_345_678)).toBe('2.35M');
  });

  it('formats sizes, costs and durations', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatCost(0)).toBe('0');
    expect(formatCost(0.00123)).toBe('0.0012');
    expect(formatCost(1.5)).toBe('1.50');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2m 05s');
  });

  it('accepts epoch seconds as well as milliseconds', () => {
    expect(toDate(1_700_000_000).getTime()).toBe(1_700_000_000_000);
    expect(toDate(1_700_000_000_123).getTime()).toBe(1_700_000_000_123);
  });
});
