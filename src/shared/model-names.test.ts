import { describe, expect, it } from 'vitest';
import { modelIdOf, modelLabel, modelLabels } from './model-names';

const t = ((key: string, opts: Record<string, string | number>) =>
  key === 'modelNames.nameAtProvider'
    ? `${opts?.name} · ${opts?.provider}`
    : key === 'modelNames.providerModel'
      ? `${opts?.provider} · ${opts?.model}`
      : key === 'providers.deepseek'
        ? 'DeepSeek'
        : key);

const profiles = [
  { id: 'deepseek.flash', name: 'DeepSeek V4 Flash', provider: 'deepseek', model: 'deepseek-v4-flash' },
  { id: 'custom.fake-model', name: 'fake-model', provider: '本地模型', model: 'fake-model' },
  { id: 'lan.a', name: 'Shared name', provider: 'LAN box', model: 'a' },
  { id: 'lan2.b', name: 'Shared name', provider: 'Other box', model: 'b' },
  { id: 'two.x', name: 'x-1', provider: 'Two models', model: 'x-1' },
  { id: 'two.y', name: 'y-2', provider: 'Two models', model: 'y-2' },
];

describe('model labels', () => {
  it('names a profile by its own display name, never its id', () => {
    expect(modelLabel('deepseek.flash', profiles, t)).toBe('DeepSeek V4 Flash');
  });

  it('names a profile whose name is only the model id by the provider name the person gave', () => {
    expect(modelLabel('custom.fake-model', profiles, t)).toBe('本地模型');
  });

  it('adds the model id where that provider has several such models', () => {
    expect(modelLabel('two.x', profiles, t)).toBe('Two models · x-1');
    expect(modelLabel('two.y', profiles, t)).toBe('Two models · y-2');
  });

  it('adds the provider only where two profiles share a display name', () => {
    const labels = modelLabels(profiles, t);
    expect(labels.get('lan.a')).toBe('Shared name · LAN box');
    expect(labels.get('lan2.b')).toBe('Shared name · Other box');
  });

  it('names a profile that is gone by its model part, without the provider stem', () => {
    expect(modelLabel('qwen.plus', profiles, t)).toBe('plus');
    expect(modelLabel('bare', profiles, t)).toBe('bare');
  });

  it('keeps the model id for the tooltip', () => {
    expect(modelIdOf('custom.fake-model', profiles)).toBe('fake-model');
    expect(modelIdOf('qwen.plus', profiles)).toBe('qwen.plus');
  });
});
