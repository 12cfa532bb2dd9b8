// The setup screen's test result names the model as a person knows it, never by its profile id.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import type { ModelProfileInfo, ProbeReport } from '../../shared/contract';
import type { SetupProvider } from '../../shared/contract/setup';
import { visibleText } from '../../shared/latin-text.test-support';
import { ProviderList, TestResult } from './SetupScreen';

const report = (ok: boolean): ProbeReport => ({
  profile: 'fake-lan.fake-model',
  rows: [
    { check: 'chat', declared: { kind: 'reply' }, observed: { kind: 'replied', text: 'pong' }, ok: true },
    { check: 'parallel_tools', declared: { kind: 'flag', value: true }, observed: { kind: 'tool_calls', count: 1 }, ok },
  ],
  exit_code: 0,
});

describe('setup test result (zh-CN)', () => {
  useUiLanguage('zh-CN');

  it("names the model by its profile's name", () => {
    const profiles = [{ id: 'fake-lan.fake-model', name: 'Fake LAN 模型', provider: 'fake-lan', model: 'fake-model' }] as ModelProfileInfo[];
    const html = renderToStaticMarkup(<TestResult state={{ status: 'done', report: report(true) }} profiles={profiles} />);
    expect(html).toContain('可以使用：Fake LAN 模型已回复。');
    expect(html).not.toContain('fake-lan.fake-model');
  });

  it('without the profile loaded yet, shows the model part of the id, not the id', () => {
    const html = renderToStaticMarkup(<TestResult state={{ status: 'done', report: report(false) }} profiles={[]} />);
    expect(html).toContain('fake-model');
    expect(html).not.toContain('fake-lan.fake-model');
  });
});

describe('setup test result for a provider added in the app (zh-CN)', () => {
  useUiLanguage('zh-CN');

  // Such a profile's name is only the model id; the person named the provider, and that is the name they know.
  it('names the model by the provider name the person gave', () => {
    const profiles = [{ id: 'custom.fake-model', name: 'fake-model', provider: '本地模型', model: 'fake-model' }] as ModelProfileInfo[];
    const html = renderToStaticMarkup(<TestResult state={{ status: 'done', report: { ...report(true), profile: 'custom.fake-model' } }} profiles={profiles} />);
    expect(html).toContain('可以使用：本地模型已回复。');
  });
});

/** A provider as the setup status lists it, with one chat model. */
function provider(name: string, fields: Partial<SetupProvider> = {}): SetupProvider {
  return {
    provider: name,
    api_base: `https://api.${name}.example/v1`,
    api_key_env: `${name.toUpperCase()}_API_KEY`,
    has_key: false,
    reachable: null,
    source: 'builtin',
    profiles: [{ id: `${name}.chat`, name: 'Chat', role: 'chat' }],
    ...fields,
  };
}

const providers = [
  provider('deepseek'),
  provider('qwen'),
  provider('openai', { has_key: true }),
  provider('ollama', { api_key_env: null }),
  provider('my-lab', { source: 'user' }),
];

/** Each provider card: its visible name, and the "get a key" link beside it (text and address), if any. */
function cards(html: string): { name: string; link: { text: string; href: string } | null }[] {
  return [...html.matchAll(/<li class="setup-provider-item">(.*?)<\/li>/gsu)].map(([, item]) => {
    const name = /<span class="cell-strong">([^<]*)<\/span>/u.exec(item)![1];
    const link = /<a class="setup-get-key" href="([^"]*)" target="_blank" rel="noreferrer"[^>]*>([^<]*)<\/a>/u.exec(item);
    return { name, link: link ? { text: visibleText(link[2]), href: link[1].replace(/&amp;/gu, '&') } : null };
  });
}

describe('the setup screen’s provider cards (en)', () => {
  useUiLanguage('en');

  it('names each provider as a person knows it and links to the page where its key is made, until it has one', () => {
    expect(cards(renderToStaticMarkup(<ProviderList providers={providers} onChoose={() => undefined} />))).toEqual([
      { name: 'DeepSeek', link: { text: 'Get a key ↗', href: 'https://platform.deepseek.com/api_keys' } },
      { name: 'Qwen (Alibaba Cloud Model Studio)', link: { text: 'Get a key ↗', href: 'https://bailian.console.aliyun.com/?tab=model#/api-key' } },
      { name: 'OpenAI', link: null },
      { name: 'Ollama (on this computer)', link: { text: 'Download Ollama ↗', href: 'https://ollama.com/download' } },
      // A provider the person added keeps the name they gave it, and Folio knows no key page for it.
      { name: 'my-lab', link: null },
    ]);
  });
});

describe('the setup screen’s provider cards (zh-CN)', () => {
  useUiLanguage('zh-CN');

  it('names the providers in Chinese', () => {
    const shown = cards(renderToStaticMarkup(<ProviderList providers={providers.slice(0, 2)} onChoose={() => undefined} />));
    expect(shown).toEqual([
      { name: 'DeepSeek深度求索', link: { text: '获取密钥 ↗', href: 'https://platform.deepseek.com/api_keys' } },
      { name: '通义千问（阿里云百炼）', link: { text: '获取密钥 ↗', href: 'https://bailian.console.aliyun.com/?tab=model#/api-key' } },
    ]);
  });
});
