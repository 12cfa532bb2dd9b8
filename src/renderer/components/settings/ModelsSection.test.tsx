// The models table's key column says in the person's language where a profile's key comes from; the
// variable's name is shown as a name (code), never as the whole cell.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../../i18n/ui-language.test-support';
import { applyLanguageSetting } from '../../i18n';
import { KeySource, LocalServerState, ProfileKeyCells, ProfilePrice } from './ModelsSection';

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
    // The tooltip is drawn by the browser without the page's autospace: the gap is typed in it.
    expect(zh).toContain('title="Folio 从环境变量 DEEPSEEK_API_KEY 读取密钥，或使用下方为它保存的密钥"');
  });

  it('says when a profile uses no key', async () => {
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<KeySource env={null} />)).toBe('<span class="muted">不使用密钥</span>');
  });
});

describe('the price of a model profile', () => {
  useUiLanguage();

  // Providers price in their own money (DeepSeek in US dollars, Qwen in yuan): a bare "0.8" says neither.
  it('says its currency, in the person\'s language, with the digits the price list gives', async () => {
    await applyLanguageSetting('en');
    expect(renderToStaticMarkup(<ProfilePrice price={{ input: 0.435, output: 0.87, currency: 'USD' }} />)).toBe('$0.435 / $0.87');
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<ProfilePrice price={{ input: 0.8, output: 2, currency: 'CNY' }} />)).toBe('¥0.80 / ¥2.00');
    expect(renderToStaticMarkup(<ProfilePrice price={{ input: 0.14, output: 0.28, currency: 'USD' }} />)).toBe('US$0.14 / US$0.28');
  });

  it('says when no price is set instead of a free-looking 0 / 0', async () => {
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<ProfilePrice price={{ input: 0, output: 0 }} />)).toBe('<span class="muted">未设置价格</span>');
  });
});

describe('the key of a local model', () => {
  useUiLanguage();

  // A local server has no key to have: a green check there claimed something that is not true.
  it('says it needs no key, with no key mark, across the key columns', async () => {
    await applyLanguageSetting('zh-CN');
    const zh = renderToStaticMarkup(<table><tbody><tr><ProfileKeyCells profile={{ api_key_env: null, has_key: true }} /></tr></tbody></table>);
    expect(zh).toContain('<td colSpan="2" class="muted" data-testid="profile-no-key">无需密钥</td>');
    expect(zh).not.toContain('✓');
    await applyLanguageSetting('en');
    expect(renderToStaticMarkup(<ProfileKeyCells profile={{ api_key_env: null, has_key: true }} />)).toContain('No key needed');
  });

  it('keeps the key marks for a profile that uses a key', async () => {
    await applyLanguageSetting('en');
    const present = renderToStaticMarkup(<ProfileKeyCells profile={{ api_key_env: 'DEEPSEEK_API_KEY', has_key: true }} />);
    expect(present).toContain('aria-label="Key available">✓');
    const missing = renderToStaticMarkup(<ProfileKeyCells profile={{ api_key_env: 'DEEPSEEK_API_KEY', has_key: false }} />);
    expect(missing).toContain('aria-label="Key missing">✗');
  });

  it('words the local server’s state as the setup screen does', async () => {
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<LocalServerState reachable={false} />)).toBe('<div class="server-state key-no" data-testid="server-state">未运行</div>');
    expect(renderToStaticMarkup(<LocalServerState reachable />)).toBe('<div class="server-state key-yes" data-testid="server-state">运行中</div>');
  });
});
