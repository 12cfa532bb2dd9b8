import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileKeyStore, hasApiKey, keyFilePath, resolveApiKey } from './keys';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-keys-'));
  temps.push(dir);
  return dir;
}

describe('file key store', () => {
  it.skipIf(process.platform === 'win32')('writes keys.json with mode 0600, even under a permissive umask', () => {
    const dir = dataDir();
    const previous = process.umask(0o000);
    try {
      createFileKeyStore(dir).set('DEEPSEEK_API_KEY', 'sk-one');
    } finally {
      process.umask(previous);
    }
    expect(statSync(keyFilePath(dir)).mode & 0o777).toBe(0o600);
  });

  it('stores a pasted key without the whitespace and newlines around it (as typed, not as copied)', () => {
    const dir = dataDir();
    const store = createFileKeyStore(dir);
    store.set('DEEPSEEK_API_KEY', '\n\t sk-pasted-0123456789\r\n');
    expect(store.get('DEEPSEEK_API_KEY')).toBe('sk-pasted-0123456789');
    expect(createFileKeyStore(dir).get('DEEPSEEK_API_KEY')).toBe('sk-pasted-0123456789');
    store.set('DEEPSEEK_API_KEY', ' \n ');
    expect(store.has('DEEPSEEK_API_KEY')).toBe(false);
  });

  it('round-trips, overwrites, removes on empty, and survives a corrupt file', () => {
    const dir = dataDir();
    const store = createFileKeyStore(dir);
    expect(store.has('DEEPSEEK_API_KEY')).toBe(false);
    store.set('DEEPSEEK_API_KEY', '  sk-one  ');
    store.set('ZHIPU_API_KEY', 'zp-two');
    expect(store.get('DEEPSEEK_API_KEY')).toBe('sk-one');
    store.set('DEEPSEEK_API_KEY', 'sk-three');
    expect(createFileKeyStore(dir).get('DEEPSEEK_API_KEY')).toBe('sk-three');
    store.set('DEEPSEEK_API_KEY', '');
    expect(store.has('DEEPSEEK_API_KEY')).toBe(false);
    expect(store.get('ZHIPU_API_KEY')).toBe('zp-two');

    writeFileSync(keyFilePath(dir), '{not json');
    expect(store.get('ZHIPU_API_KEY')).toBeUndefined();
    store.set('ZHIPU_API_KEY', 'zp-four');
    expect(store.get('ZHIPU_API_KEY')).toBe('zp-four');
  });

  it('stores through the codec, so keys need not be plain on disk', () => {
    const dir = dataDir();
    const codec = { encode: (s: string) => Buffer.from(s).toString('base64'), decode: (s: string) => Buffer.from(s, 'base64').toString() };
    createFileKeyStore(dir, codec).set('OPENAI_API_KEY', 'sk-plain-secret');
    expect(readFileSync(keyFilePath(dir), 'utf8')).not.toContain('sk-plain-secret');
    expect(createFileKeyStore(dir, codec).get('OPENAI_API_KEY')).toBe('sk-plain-secret');
    const failing = { encode: codec.encode, decode: (): string => { throw new Error('cannot decrypt'); } };
    expect(createFileKeyStore(dir, failing).get('OPENAI_API_KEY')).toBeUndefined();
  });

  it('rejects a bad env name without echoing the key', () => {
    const store = createFileKeyStore(dataDir());
    expect(() => store.set('bad name', 'sk-leak-me')).toThrow(/environment variable/);
    try {
      store.set('bad name', 'sk-leak-me');
    } catch (err) {
      expect(String(err)).not.toContain('sk-leak-me');
    }
  });
});

describe('resolveApiKey', () => {
  it('prefers the environment, then the store; key-less profiles get empty string', () => {
    const store = createFileKeyStore(dataDir());
    const profile = { api_key_env: 'DEEPSEEK_API_KEY' };
    expect(resolveApiKey(profile, store, {})).toBeUndefined();
    expect(hasApiKey(profile, store, {})).toBe(false);
    store.set('DEEPSEEK_API_KEY', 'from-store');
    expect(resolveApiKey(profile, store, {})).toBe('from-store');
    expect(resolveApiKey(profile, store, { DEEPSEEK_API_KEY: 'from-env' })).toBe('from-env');
    expect(resolveApiKey(profile, store, { DEEPSEEK_API_KEY: '' })).toBe('from-store');
    expect(resolveApiKey({ api_key_env: null }, store, {})).toBe('');
    expect(hasApiKey({ api_key_env: null }, store, {})).toBe(true);
  });
});
