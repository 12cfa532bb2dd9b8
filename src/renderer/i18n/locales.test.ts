import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import zhCN from './locales/zh-CN.json';
import { resolveLanguage } from './index';

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
    expect(leaf(zhCN, 'usage.footerTokens')).toBe('全部任务：{{tokens}} 词元');
  });

  it('joins a name to Chinese words without a typed space (the layout makes the Chinese–Latin gap)', () => {
    // Numbers, amounts and dates keep their spaces ("第 3 页"): only these placeholders stand for one.
    const numbers = new Set(['applied', 'body', 'code', 'columns', 'completion', 'cost', 'count', 'date', 'days', 'dimensions', 'done', 'dpi', 'item', 'limit', 'line', 'max', 'messages', 'min', 'needed', 'number', 'out', 'output', 'page', 'pages', 'paragraph', 'prompt', 'reliable', 'seconds', 'size', 'slides', 'time', 'tokens', 'total', 'units']);
    const chinese = String.raw`[\p{Script=Han}\u3000-\u303f\uff00-\uffef]`;
    const spaced = new RegExp(String.raw`\{\{(\w+)\}\}\}? (?=${chinese})|${chinese} \{#?\{\{(\w+)\}\}`, 'gu');
    const found: string[] = [];
    for (const key of flatKeys(zhCN)) {
      for (const m of String(leaf(zhCN, key)).matchAll(spaced)) if (!numbers.has(m[1] ?? m[2])) found.push(`${key}: ${m[0]}`);
    }
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
