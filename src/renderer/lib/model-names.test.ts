import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { modelLabels, modelName } from './model-names';

const t = ((key: string, opts?: Record<string, string>) => (key === 'models.nameAtProvider' ? `${opts?.name} · ${opts?.provider}` : key === 'providers.deepseek' ? 'DeepSeek' : key)) as unknown as TFunction;

const profiles = [
  { id: 'deepseek.flash', name: 'DeepSeek V4 Flash', provider: 'deepseek' },
  { id: 'local-fake.fake-model', name: 'fake-model', provider: 'Local fake' },
  { id: 'lan.fake-model', name: 'fake-model', provider: 'LAN box' },
];

describe('model names', () => {
  it('names a profile by its own name, never its id', () => {
    expect(modelName('deepseek.flash', profiles)).toBe('DeepSeek V4 Flash');
  });

  it('names a profile that is gone by its model part, without the provider stem', () => {
    expect(modelName('qwen.plus', profiles)).toBe('plus');
    expect(modelName('bare', profiles)).toBe('bare');
  });

  it('adds the provider only where two profiles share a name', () => {
    const labels = modelLabels(profiles, t);
    expect(labels.get('deepseek.flash')).toBe('DeepSeek V4 Flash');
    expect(labels.get('local-fake.fake-model')).toBe('fake-model · Local fake');
    expect(labels.get('lan.fake-model')).toBe('fake-model · LAN box');
  });
});
