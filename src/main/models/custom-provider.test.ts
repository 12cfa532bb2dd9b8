// A provider added from the UI: the file written, the key kept out of it, and the loader reading it.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findResourcesDir } from '../config/app-paths';
import { CUSTOM_PROVIDER_MARKER, customKeyEnv, providerSlug, writeCustomProvider } from './custom-provider';
import { createFileKeyStore, resolveApiKey } from './keys';
import { loadModelProfiles } from './load-profiles';

const builtin = join(findResourcesDir(), 'config', 'models');
const shipped = new Set(['deepseek', 'ollama', 'openai', 'qwen', 'zhipu']);

function dirs() {
  const data = mkdtempSync(join(tmpdir(), 'folio-custom-'));
  return { data, user: join(data, 'models'), keys: createFileKeyStore(data) };
}

describe('writeCustomProvider', () => {
  it('writes <data>/models/<slug>.yaml with the models, the key only in the key store, and the loader reads it', () => {
    const { data, user, keys } = dirs();
    const written = writeCustomProvider(user, shipped, keys, {
      name: 'Home GPU box',
      apiBase: 'http://192.168.1.20:8000/v1',
      apiKey: ' sk-home-secret-77 ',
      models: [
        { id: 'meta-llama/Llama-3.1-8B', context_length: 131072 },
        { id: 'qwen3:8b', context_length: null },
      ],
    });
    expect(written).toEqual({
      provider: 'Home GPU box',
      file: join(user, 'home-gpu-box.yaml'),
      api_key_env: 'FOLIO_HOME_GPU_BOX_API_KEY',
      profile_ids: ['home-gpu-box.meta-llama-Llama-3-1-8B', 'home-gpu-box.qwen3-8b'],
    });
    const text = readFileSync(written.file, 'utf8');
    expect(text.startsWith(CUSTOM_PROVIDER_MARKER)).toBe(true);
    expect(text).not.toContain('sk-home-secret-77');
    expect(readdirSync(user)).toEqual(['home-gpu-box.yaml']);
    expect(parse(text)).toEqual({
      provider: 'Home GPU box',
      api_base: 'http://192.168.1.20:8000/v1',
      api_key_env: 'FOLIO_HOME_GPU_BOX_API_KEY',
      profiles: {
        'meta-llama-Llama-3-1-8B': { name: 'meta-llama/Llama-3.1-8B', model: 'meta-llama/Llama-3.1-8B', role: 'chat', max_context: 131072, max_output: 8192 },
        'qwen3-8b': { name: 'qwen3:8b', model: 'qwen3:8b', role: 'chat', max_context: 32768, max_output: 8192 },
      },
    });
    expect(keys.get('FOLIO_HOME_GPU_BOX_API_KEY')).toBe('sk-home-secret-77');

    const { profiles, warnings } = loadModelProfiles({ builtin, user });
    expect(warnings).toEqual([]);
    const loaded = profiles.find((p) => p.id === 'home-gpu-box.qwen3-8b');
    expect(loaded).toMatchObject({ provider: 'Home GPU box', model: 'qwen3:8b', api_base: 'http://192.168.1.20:8000/v1', source: 'user', reliable_context: Math.floor(32768 * 0.6) });
    expect(resolveApiKey(loaded!, keys, {})).toBe('sk-home-secret-77');
    expect(readFileSync(join(data, 'keys.json'), 'utf8')).toContain('FOLIO_HOME_GPU_BOX_API_KEY');
  });

  it('a key-less server gets api_key_env null; a shipped provider name never shadows the shipped file', () => {
    const { user, keys } = dirs();
    const written = writeCustomProvider(user, shipped, keys, { name: 'Ollama', apiBase: 'http://10.0.0.5:11434/v1', models: [{ id: 'llama3.1:8b', context_length: null }] });
    expect(written).toMatchObject({ file: join(user, 'ollama-custom.yaml'), api_key_env: null, profile_ids: ['ollama-custom.llama3-1-8b'] });
    const { profiles } = loadModelProfiles({ builtin, user });
    expect(profiles.find((p) => p.id === 'ollama-custom.llama3-1-8b')?.api_key_env).toBeNull();
    // The shipped Ollama profiles are untouched.
    expect(profiles.find((p) => p.id === 'ollama.qwen3')?.api_base).toBe('http://127.0.0.1:11434/v1');
  });

  it("replaces its own file when set up again, but refuses to overwrite a person's own file", () => {
    const { user, keys } = dirs();
    const spec = { name: 'lan', apiBase: 'http://127.0.0.1:9/v1', apiKey: 'k1', models: [{ id: 'a', context_length: null }] };
    writeCustomProvider(user, shipped, keys, spec);
    writeCustomProvider(user, shipped, keys, { ...spec, apiKey: 'k2', models: [{ id: 'b', context_length: null }] });
    expect(Object.keys((parse(readFileSync(join(user, 'lan.yaml'), 'utf8')) as { profiles: object }).profiles)).toEqual(['b']);
    expect(keys.get('FOLIO_LAN_API_KEY')).toBe('k2');

    mkdirSync(user, { recursive: true });
    writeFileSync(join(user, 'mine.yaml'), 'profiles: {}\n');
    expect(() => writeCustomProvider(user, shipped, keys, { ...spec, name: 'Mine' })).toThrow(/was not written by Folio/);
    expect(readFileSync(join(user, 'mine.yaml'), 'utf8')).toBe('profiles: {}\n');
  });

  it('slugs and key names stay within what the loader and the key store accept', () => {
    expect(providerSlug('  我的 服务器 ', shipped)).toBe('custom');
    expect(providerSlug('DeepSeek', shipped)).toBe('deepseek-custom');
    expect(providerSlug('x'.repeat(80), shipped)).toHaveLength(40);
    expect(customKeyEnv('my-lan-1')).toBe('FOLIO_MY_LAN_1_API_KEY');
  });
});
