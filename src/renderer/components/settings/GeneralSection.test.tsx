// Settings' total usage ends with the cost as the run footer words it, or says no price is set as an
// item of its own: "cost No price set" read as a broken sentence.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { applyLanguageSetting } from '../../i18n';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { TotalUsage } from './GeneralSection';

const usage = { prompt_tokens: 23_000, completion_tokens: 667 };

describe('the total usage line', () => {
  useUiLanguage();

  it('says no price is set as its own item, in English and Chinese', async () => {
    await applyLanguageSetting('en');
    expect(renderToStaticMarkup(<TotalUsage usage={usage} money={null} />)).toBe('24k tokens (23k in · 667 out) · No price set');
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<TotalUsage usage={usage} money={null} />)).toBe('24k词元（输入23k · 输出667）· 未设置价格');
  });

  it('names the cost with its currency when there is a price', async () => {
    await applyLanguageSetting('en');
    expect(renderToStaticMarkup(<TotalUsage usage={usage} money="$0.01" />)).toBe('24k tokens (23k in · 667 out) · Cost $0.01');
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<TotalUsage usage={usage} money="¥0.07" />)).toBe('24k词元（输入23k · 输出667）· 费用<span class="gap-start">¥0.07</span>');
  });
});
