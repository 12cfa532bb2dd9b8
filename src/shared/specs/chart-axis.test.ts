import { describe, expect, it } from 'vitest';
import { axisTicks, valueAxisFor, withDecimals } from './chart-axis';

describe('the value axis of a chart', () => {
  it('steps in whole twenties when the data spans ~100, whatever decimals another series has', () => {
    const axis = valueAxisFor([6, 12, 25, 51, 104, 0.3, 3.2], '#,##0.0" 小时"');
    expect(axis).toEqual({ min: 0, max: 120, step: 20, numberFormat: '#,##0" 小时"' });
    expect(axisTicks(axis)).toEqual([0, 20, 40, 60, 80, 100, 120]);
  });

  it('keeps room above the largest value for its label', () => {
    expect(valueAxisFor([20, 40, 60], '#,##0').max).toBe(80);
    expect(valueAxisFor([71.2, 86.9], '#,##0.0"%"')).toEqual({ min: 0, max: 100, step: 20, numberFormat: '#,##0"%"' });
  });

  it('keeps the share of the axis asked for free above the largest value, for a label outside it', () => {
    expect(valueAxisFor([4500, 4900], '#,##0"万元"').max).toBe(5000);
    const axis = valueAxisFor([4500, 4900], '#,##0"万元"', 0.1);
    expect(axis).toMatchObject({ min: 0, max: 6000, step: 1000 });
    expect((axis.max - 4900) / axis.max).toBeGreaterThanOrEqual(0.1);
  });

  it('writes the decimals a small step needs, without float noise', () => {
    const axis = valueAxisFor([0.03, 0.07], '#,##0.00');
    expect(axis).toMatchObject({ step: 0.02, numberFormat: '#,##0.00' });
    expect(axisTicks(axis)).toEqual([0, 0.02, 0.04, 0.06, 0.08]);
  });

  it('reaches below zero for negative data, and never has more than six intervals', () => {
    for (const values of [[-3, 5, 8], [1200, 3400, 5100], [0.12, 0.97], [13.4], [-1e6, 1], [7]]) {
      const axis = valueAxisFor(values, '#,##0');
      expect(axis.min).toBeLessThanOrEqual(Math.min(0, ...values));
      expect(axis.max).toBeGreaterThan(Math.max(...values));
      expect((axis.max - axis.min) / axis.step).toBeLessThanOrEqual(6);
      expect(axisTicks(axis).at(-1)).toBe(axis.max);
    }
  });

  it('leaves half a step below the lowest negative value, where its label hangs above the category labels', () => {
    for (const values of [[3.4, -2.1, 1.2], [-2, 5, 8], [-0.5, 0.2], [-40, -10]]) {
      const axis = valueAxisFor(values, '#,##0.0');
      expect(Math.min(...values) - axis.min, values.join()).toBeGreaterThanOrEqual(axis.step / 2 - 1e-9);
      expect((axis.max - axis.min) / axis.step).toBeLessThanOrEqual(6 + 1e-9);
    }
  });

  it('gives flat zero data a unit axis', () => {
    expect(valueAxisFor([0, 0], '#,##0')).toEqual({ min: 0, max: 1, step: 0.2, numberFormat: '#,##0.0' });
  });

  it('changes only the digits of a format', () => {
    expect(withDecimals('#,##0.00" ms"', 0)).toBe('#,##0" ms"');
    expect(withDecimals('0', 2)).toBe('0.00');
  });
});
