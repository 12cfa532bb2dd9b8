import { describe, expect, it } from 'vitest';
import { TOOL_FAILURE_KINDS } from '../contract/tool-calls';
import { loadToolCatalogZhCN, toolCatalogEn } from './shared-strings';
import { FAILURES_NAMING_A_PATH } from './tools';

const cjk = /[\u3400-\u9fff]/u;
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/gu)].map((m) => m[1]).sort();

describe('the tool catalog', () => {
  it('says every failure kind, and the file for the kinds that name one, in English and in Chinese', async () => {
    const zhCN = await loadToolCatalogZhCN();
    for (const [language, catalog] of [['en', toolCatalogEn], ['zh-CN', zhCN]] as const) {
      for (const kind of TOOL_FAILURE_KINDS) expect(catalog.toolFailure[kind]?.trim(), `${language} ${kind}`).toBeTruthy();
      for (const kind of FAILURES_NAMING_A_PATH) expect(catalog.toolFailure[`${kind}_path`], `${language} ${kind}_path`).toContain('{{path}}');
    }
  });

  it('holds the same keys and placeholders in both languages, every Chinese sentence in Chinese', async () => {
    const zhCN = await loadToolCatalogZhCN();
    for (const group of ['toolName', 'toolSummary', 'toolFailure'] as const) {
      const en: Record<string, string> = toolCatalogEn[group];
      const zh: Record<string, string> = zhCN[group];
      expect(Object.keys(zh).sort(), group).toEqual(Object.keys(en).sort());
      for (const key of Object.keys(en)) {
        expect(placeholders(zh[key] ?? ''), `${group}.${key}`).toEqual(placeholders(en[key] ?? ''));
        if (!(group === 'toolName' && key === 'mcp')) expect(zh[key], `${group}.${key}`).toMatch(cjk);
      }
    }
  });
});

