import { describe, expect, it } from 'vitest';
import { joinDigitGroups } from './digit-groups';

describe('digit groups', () => {
  it('holds the groups of a number together with narrow no-break spaces', () => {
    expect(joinDigitGroups('随机终止注入（10 000 次）')).toBe('随机终止注入（10\u202F000 次）');
    expect(joinDigitGroups('1 234 567 rows and 12 345')).toBe('1\u202F234\u202F567 rows and 12\u202F345');
  });

  it('leaves numbers that are not one grouped number apart', () => {
    expect(joinDigitGroups('pages 12 34 and 1 2345, 3.5 000, in 2026 123')).toBe('pages 12 34 and 1 2345, 3.5 000, in 2026 123');
  });
});
