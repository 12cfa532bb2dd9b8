// A picker's blank choice says which model it stands for, by its name, in the person's language: the
// task header's and the project page's alike.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ModelProfileInfo } from '../../shared/contract';
import { applyLanguageSetting } from '../i18n';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { DefaultModelOption, ModelOptions } from './ModelOptions';

const qwenPlus = { id: 'qwen.plus', provider: 'qwen', name: 'Qwen Plus', model: 'qwen-plus', role: 'chat', has_key: true } as ModelProfileInfo;

describe('the default model choice', () => {
  useUiLanguage();

  it('names the default model, in Chinese and in English', async () => {
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<DefaultModelOption defaultModel="qwen.plus" profiles={[qwenPlus]} />)).toBe('<option value="">默认（Qwen Plus）</option>');
    await applyLanguageSetting('en');
    expect(renderToStaticMarkup(<DefaultModelOption defaultModel="qwen.plus" profiles={[qwenPlus]} />)).toBe('<option value="">Default (Qwen Plus)</option>');
    expect(renderToStaticMarkup(<DefaultModelOption defaultModel={null} profiles={[qwenPlus]} />)).toBe('<option value="">Default model</option>');
  });
});

describe('a model from a provider added in the app', () => {
  useUiLanguage();

  // The person typed "本地模型" for the provider; the profile's own name is only the model id.
  const local = { id: 'custom.fake-model', provider: '本地模型', name: 'fake-model', model: 'fake-model', role: 'chat', has_key: true, api_key_env: null } as ModelProfileInfo;

  it('is offered and named by the provider name, with the model id as its tooltip', async () => {
    await applyLanguageSetting('zh-CN');
    expect(renderToStaticMarkup(<ModelOptions profiles={[local]} />)).toBe('<option value="custom.fake-model" title="fake-model">本地模型</option>');
    expect(renderToStaticMarkup(<DefaultModelOption defaultModel="custom.fake-model" profiles={[local]} />)).toBe('<option value="">默认（本地模型）</option>');
  });
});
