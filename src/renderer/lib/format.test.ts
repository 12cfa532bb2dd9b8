import { describe, expect, it } from 'vitest';
import { applyLanguageSetting, i18n } from '../i18n';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { formatBytes, formatCost, formatDateTime, formatDuration, formatMoney, formatTaskCost, formatTokens, formatTotalCost, toDate } from './format';

describe('format', () => {
  useUiLanguage();

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
  });

  it('words a duration in the screen’s units, never English abbreviations on a Chinese screen', async () => {
    await applyLanguageSetting('en');
    const t = (key: string, values: Record<string, string>) => i18n.t(key, values);
    expect(formatDuration(850, t)).toBe('850 ms');
    expect(formatDuration(12_340, t)).toBe('12.3 s');
    expect(formatDuration(125_000, t)).toBe('2m 05s');
    await applyLanguageSetting('zh-CN');
    expect(formatDuration(850, t)).toBe('850毫秒');
    expect(formatDuration(12_340, t)).toBe('12.3秒');
    expect(formatDuration(125_000, t)).toBe('2分05秒');
    expect(formatDuration(3_900_000, t)).toBe('1小时05分');
  });

  it('accepts epoch seconds as well as milliseconds', () => {
    expect(toDate(1_700_000_000).getTime()).toBe(1_700_000_000_000);
    expect(toDate(1_700_000_000_123).getTime()).toBe(1_700_000_000_123);
  });
});

describe('formatMoney', () => {
  it('writes a cost in its profile currency, for the UI language', () => {
    expect(formatMoney(0.00123, { input: 1, output: 2, currency: 'USD' }, 'en')).toBe('$0.0012');
    expect(formatMoney(1.5, { input: 1, output: 2, currency: 'CNY' }, 'zh-CN')).toBe('¥1.50');
    expect(formatMoney(1.5, { input: 1, output: 2, currency: 'CNY' }, 'en')).toBe('CN¥1.50');
  });

  it('says nothing rather than a false 0 when the profile sets no price', () => {
    expect(formatMoney(0, { input: 0, output: 0, currency: 'USD' }, 'en')).toBeNull();
  });

  it('falls back to the bare amount without a profile, and to the code for an unknown currency', () => {
    expect(formatMoney(0.5, undefined, 'en')).toBe('0.50');
    expect(formatMoney(0.5, { input: 1, output: 1, currency: 'XQZ1' }, 'en')).toBe('0.50 XQZ1');
  });
});

describe('formatTaskCost', () => {
  const profiles = [
    { id: 'openai.gpt', price: { input: 1, output: 2, currency: 'USD' } },
    { id: 'deepseek.chat', price: { input: 2, output: 8, currency: 'CNY' } },
    { id: 'local.free', price: { input: 0, output: 0 } },
  ];

  it('writes the cost in the currency of the task model, else of the default model', () => {
    expect(formatTaskCost({ cost: 0.001, model: 'openai.gpt' }, profiles, 'deepseek.chat', 'en')).toBe('$0.0010');
    expect(formatTaskCost({ cost: 0.35, model: null }, profiles, 'deepseek.chat', 'zh-CN')).toBe('¥0.35');
  });

  it('gives no amount when the model sets no price or is unknown', () => {
    expect(formatTaskCost({ cost: 0, model: 'local.free' }, profiles, null, 'en')).toBeNull();
    expect(formatTaskCost({ cost: 0.5, model: 'gone.model' }, profiles, null, 'en')).toBeNull();
    expect(formatTaskCost({ cost: 0.5, model: null }, profiles, null, 'en')).toBeNull();
  });
});

describe('formatDateTime', () => {
  // Noon UTC on 6 Dec 2026: the same calendar day in every time zone a CI machine may have.
  const noon = Date.UTC(2026, 11, 6, 12, 0);
  it('writes the date the way the UI language does', () => {
    expect(formatDateTime(noon, 'zh-CN')).toMatch(/^2026年12月6日/u);
    expect(formatDateTime(noon, 'en')).toMatch(/^Dec 6, 2026/u);
  });
  it('reads second timestamps as well as milliseconds', () => {
    expect(formatDateTime(noon / 1000, 'en')).toBe(formatDateTime(noon, 'en'));
  });
});

describe('formatTotalCost', () => {
  const usd = { price: { input: 1, output: 2, currency: 'USD' } };
  const cny = { price: { input: 1, output: 2, currency: 'CNY' } };
  const free = { price: { input: 0, output: 0 } };

  it('writes the total in the one currency of the priced models', () => {
    expect(formatTotalCost(0.0012, [usd, free], 'en')).toBe('$0.0012');
    expect(formatTotalCost(1.5, [cny], 'zh-CN')).toBe('¥1.50');
  });

  it('gives no amount, not a bare "0", when no model has a price or their currencies differ', () => {
    expect(formatTotalCost(0, [free], 'en')).toBeNull();
    expect(formatTotalCost(0, [], 'en')).toBeNull();
    expect(formatTotalCost(2, [usd, cny], 'en')).toBeNull();
  });
});
