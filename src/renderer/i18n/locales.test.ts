import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import zhCN from './locales/zh-CN.json';
import { resolveLanguage } from './index';
import { gapSides } from '../../shared/locales/plain-spacing';

// Every zh-CN catalog: the app's own and each shared one (src/shared/locales/<name>/zh-CN.json).
const sharedZhCN = import.meta.glob<{ default: object }>('../../shared/locales/*/zh-CN.json', { eager: true });
const zhCNCatalogs: Record<string, object> = { renderer: zhCN, ...Object.fromEntries(Object.entries(sharedZhCN).map(([path, m]) => [path.split('/').at(-2) ?? path, m.default])) };

function flatKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => flatKeys(child, prefix ? `${prefix}.${key}` : key));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
}

function leaf(obj: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], obj);
}

describe('locales', () => {
  it('en and zh-CN have exactly the same keys', () => {
    expect(flatKeys(zhCN).sort()).toEqual(flatKeys(en).sort());
  });

  it('every string is non-empty and uses the same {{placeholders}} in both languages', () => {
    for (const key of flatKeys(en)) {
      const a = leaf(en, key);
      const b = leaf(zhCN, key);
      expect(typeof a, key).toBe('string');
      expect(typeof b, key).toBe('string');
      expect((a as string).trim(), key).not.toBe('');
      expect((b as string).trim(), key).not.toBe('');
      expect(placeholders(b as string), key).toEqual(placeholders(a as string));
    }
  });

  it('names the token unit in the language of the screen, never as an English abbreviation', () => {
    const usage = ['usage.short', 'usage.tokensOnly', 'usage.footer', 'usage.footerTokens', 'usage.tooltip', 'usage.totalValue', 'chat.compacted', 'models.contextHint'];
    const words = (text: unknown) => String(text).replace(/\{\{\s*\w+\s*\}\}/gu, '');
    for (const key of usage) {
      expect(words(leaf(zhCN, key)), key).not.toMatch(/tok/iu);
      expect(words(leaf(en, key)), key).not.toMatch(/\btok\b/u);
    }
    expect(leaf(zhCN, 'usage.footerTokens')).toBe('全部任务：{{tokens}}词元');
  });

  it('types no space between Chinese and a Latin letter, digit or placeholder, in any zh-CN catalog', () => {
    // The page's `text-autospace` draws that gap and plain text gets it typed in (plain-spacing.ts),
    // so a typed one would show twice as wide beside a drawn one. Column padding (two or more spaces) is not a gap.
    const { ideograph, alphanumeric } = gapSides;
    const typed = new RegExp(String.raw`(?<=${ideograph}) (?=${alphanumeric}|\{\{)|(?<=${alphanumeric}|\}\}) (?=${ideograph})`, 'gu');
    const found: string[] = [];
    for (const [name, catalog] of Object.entries(zhCNCatalogs)) {
      for (const key of flatKeys(catalog)) {
        const text = String(leaf(catalog, key));
        for (const m of text.matchAll(typed)) found.push(`${name} ${key}: …${text.slice(Math.max(0, m.index - 8), m.index + 9)}…`);
      }
    }
    expect(Object.keys(zhCNCatalogs).sort()).toEqual(expect.arrayContaining(['chat', 'cli', 'errors', 'names', 'renderer', 'report', 'tools']));
    expect(found).toEqual([]);
    expect(leaf(zhCN, 'setup.testOk')).toBe('可以使用：{{profile}}已回复。');
  });

  it('follows the browser language unless the user picked one', () => {
    expect(resolveLanguage('system', 'zh-TW')).toBe('zh-CN');
    expect(resolveLanguage('system', 'zh')).toBe('zh-CN');
    expect(resolveLanguage('system', 'en-GB')).toBe('en');
    expect(resolveLanguage('system', undefined)).toBe('en');
    expect(resolveLanguage('en', 'zh-CN')).toBe('en');
    expect(resolveLanguage('zh-CN', 'en-US')).toBe('zh-CN');
  });
});
