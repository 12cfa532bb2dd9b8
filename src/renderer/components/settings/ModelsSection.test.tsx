// The models table's key column says in the person's language where a profile's key comes from; the
// variable's name is shown as a name (code), never as the whole cell.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { applyLanguageSetting } from '../../i18n';
import { KeySource } from './ModelsSection';

describe('the key source of a model profile', () => {
  useUiLanguage();

  it('words the environment variable in English and in Chinese', async () => {
    await applyLanguageSetting('en');
    const en = renderToStaticMarkup(<KeySource env="DEEPSEEK_API_KEY" />);
    expect(en).toContain('<span class="muted">Environment variable</span><code>DEEPSEEK_API_KEY</code>');
    expect(en).toContain('title="Folio reads the key from the environment variable DEEPSEEK_API_KEY, or uses the key saved for it below"');
    await applyLanguageSetting('zh-CN');
    const zh = renderToStaticMarkup(<KeySource env="DEEPSEEK_API_KEY" />);
    expect(zh).toContain('<span class="muted">环境变量</span><code>DEEPSEEK_API_KEY</code>');
    expect(zh).toContain('从环境变量 DEEPSEEK_API_KEY 读取密钥');
  });

  it('says when a profile uses no key', async () => {
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<KeySource env={null} />)).toBe('<span class="muted">不使用密钥</span>');
  });
});
