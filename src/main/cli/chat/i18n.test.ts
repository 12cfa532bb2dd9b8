import { describe, expect, it } from 'vitest';
import en from '../../../shared/locales/chat/en.json';
import zhCN from '../../../shared/locales/chat/zh-CN.json';
import cliEn from '../../../shared/locales/cli/en.json';
import cliZhCN from '../../../shared/locales/cli/zh-CN.json';
import { RetryCause } from '../../../shared/contract';
import { createTranslate, resolveChatLanguage } from './i18n';

function flatKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => flatKeys(child, prefix ? `${prefix}.${key}` : key));
}

function leaf(obj: unknown, key: string): string {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], obj) as string;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('chat locale', () => {
  it.each([
    ['chat', en, zhCN],
    ['cli', cliEn, cliZhCN],
  ])('%s: has the same keys and placeholders in English and Chinese', (_name, english, chinese) => {
    expect(flatKeys(chinese).sort()).toEqual(flatKeys(english).sort());
    for (const key of flatKeys(english)) expect(placeholders(leaf(chinese, key)), key).toEqual(placeholders(leaf(english, key)));
  });

  it('follows the app setting, else LANG', () => {
    expect(resolveChatLanguage('zh-CN', { LANG: 'en_US.UTF-8' })).toBe('zh-CN');
    expect(resolveChatLanguage('system', { LANG: 'zh_CN.UTF-8' })).toBe('zh-CN');
    expect(resolveChatLanguage('system', { LC_ALL: 'en_GB.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(resolveChatLanguage(undefined, {})).toBe('en');
  });

  it('interpolates in both languages', async () => {
    expect((await createTranslate('en'))('errors.notFound', { id: 'abc' })).toBe('No task abc.');
    expect((await createTranslate('zh-CN'))('errors.notFound', { id: 'abc' })).toBe('没有任务 abc。');
    expect((await createTranslate('zh-CN'))('task.resumed', { id: 't1', title: '基金', mode: 'proposal', status: 'completed', approval: 'ask' })).toBe('任务 t1 · 基金 · 申请书 · 已完成 · 审批：每次询问');
  });

  it('words every kind of retry in Chinese, never the provider’s English reason', async () => {
    const zh = await createTranslate('zh-CN');
    expect(zh('run.retryBecause', { attempt: 2, cause: 'rate_limited' })).toBe('模型调用失败（模型服务正在限制请求频率），正在重试（第 2 次）。');
    for (const cause of RetryCause.options) expect(zh('run.retryBecause', { attempt: 1, cause }), cause).toMatch(/^模型调用失败（[^A-Za-z（）]+），正在重试/u);
  });
});
