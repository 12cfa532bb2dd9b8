import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MCP_REDACTED } from '../../shared/contract/mcp';
import { createFileKeyStore } from '../models/keys';
import { parseRawConfig } from './config';
import { scrub, scrubDeep } from '../net/secret-scrub';
import { moveFileSecretsToKeyStore, redactConfig, resolveSecrets, SECRET_REF_PREFIX, storeSecrets, writeConfigFile } from './secrets';

const setup = () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-mcp-secrets-'));
  return { dir, keys: createFileKeyStore(dir) };
};

describe('MCP secrets', () => {
  it('moves env values and headers into the key store, keeping only references in mcp.json (0600)', () => {
    const { dir, keys } = setup();
    const next = parseRawConfig(JSON.stringify({ mcpServers: { gh: { command: 'x', env: { GITHUB_TOKEN: 'ghp_secret123' } }, web: { url: 'https://a.example/mcp', headers: { Authorization: 'Bearer tok456' } } } }));
    const { raw, problems } = storeSecrets(next, { mcpServers: {} }, keys);
    expect(problems).toEqual([]);
    const path = join(dir, 'mcp.json');
    writeConfigFile(path, raw);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('ghp_secret123');
    expect(text).not.toContain('tok456');
    expect(text).toContain(SECRET_REF_PREFIX);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const env = (raw.mcpServers.gh as { env: Record<string, string> }).env;
    expect(resolveSecrets(env, keys)).toEqual({ values: { GITHUB_TOKEN: 'ghp_secret123' }, missing: [] });
  });

  it('shows "••••" for every value, keeps the stored one when saved back unchanged, and forgets removed ones', () => {
    const { keys } = setup();
    const first = storeSecrets(parseRawConfig(JSON.stringify({ mcpServers: { gh: { command: 'x', env: { A: 'aaaa1', B: 'bbbb2' } } } })), { mcpServers: {} }, keys).raw;
    const redacted = redactConfig(first);
    expect(redacted.mcpServers.gh).toEqual({ command: 'x', env: { A: MCP_REDACTED, B: MCP_REDACTED } });
    // The person keeps A, drops B and adds C.
    const edited = parseRawConfig(JSON.stringify({ mcpServers: { gh: { command: 'x', env: { A: MCP_REDACTED, C: 'cccc3' } } } }));
    const second = storeSecrets(edited, first, keys);
    const env = (second.raw.mcpServers.gh as { env: Record<string, string> }).env;
    expect(env.A).toBe((first.mcpServers.gh as { env: Record<string, string> }).env.A);
    expect(resolveSecrets(env, keys).values).toEqual({ A: 'aaaa1', C: 'cccc3' });
    const oldB = (first.mcpServers.gh as { env: Record<string, string> }).env.B.slice(SECRET_REF_PREFIX.length);
    expect(keys.get(oldB)).toBeUndefined();
    // "••••" for a value never stored is reported, not saved as the literal dots.
    const orphan = storeSecrets(parseRawConfig(JSON.stringify({ mcpServers: { gh: { command: 'x', env: { NEW: MCP_REDACTED } } } })), first, keys);
    expect(orphan.problems[0]).toMatchObject({ server: 'gh' });
  });

  it('never resolves a reference to a key outside the MCP namespace (a model API key)', () => {
    const { keys } = setup();
    keys.set('OPENAI_API_KEY', 'sk-model-key');
    expect(resolveSecrets({ X: `${SECRET_REF_PREFIX}OPENAI_API_KEY` }, keys).values).toEqual({ X: `${SECRET_REF_PREFIX}OPENAI_API_KEY` });
    expect(scrub('token sk-model-key here', ['sk-model-key'])).toBe(`token ${MCP_REDACTED} here`);
  });
});

describe('a config pasted straight into mcp.json', () => {
  it('has its secrets moved into the key store at start; a second pass changes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-mcp-paste-'));
    const path = join(dir, 'mcp.json');
    writeFileSync(path, JSON.stringify({ mcpServers: { gh: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: 'ghp_pasted_secret' } } } }));
    const keys = createFileKeyStore(dir);
    expect(moveFileSecretsToKeyStore(path, keys)).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('ghp_pasted_secret');
    expect(text).toContain(SECRET_REF_PREFIX);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const stored = parseRawConfig(text).mcpServers.gh as { env: Record<string, string> };
    expect(resolveSecrets(stored.env, keys).values.GITHUB_TOKEN).toBe('ghp_pasted_secret');
    expect(moveFileSecretsToKeyStore(path, keys)).toBe(false);
  });

  it('leaves a missing or unparsable file alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-mcp-paste-'));
    const keys = createFileKeyStore(dir);
    expect(moveFileSecretsToKeyStore(join(dir, 'mcp.json'), keys)).toBe(false);
    writeFileSync(join(dir, 'mcp.json'), '{"mcpServers": {"gh": {"env": {"T": "x"}}');
    expect(moveFileSecretsToKeyStore(join(dir, 'mcp.json'), keys)).toBe(false);
    expect(readFileSync(join(dir, 'mcp.json'), 'utf8')).toContain('"T": "x"');
  });

  describe('scrubbing echoed copies', () => {
    const secret = 'sk-live_Ab3+/xYz9Q';
    const hex = Buffer.from(secret).toString('hex');
    const b64 = (prefix: string): string => Buffer.from(`${prefix}${secret}`).toString('base64');
    it.each([
      ['as is', `key ${secret} ok`],
      ['upper case', `key ${secret.toUpperCase()} ok`],
      ['lower case', `key ${secret.toLowerCase()} ok`],
      ['spaced', `key ${[...secret].join(' ')} ok`],
      ['one per line', `key\n${[...secret].join('\n')}\nok`],
      ['zero-width joined', `key ${[...secret].join('\u200b')} ok`],
      ['reversed', `key ${[...secret].reverse().join('')} ok`],
      ['base64', `auth ${b64('')}`],
      ['base64 after one byte', `auth ${b64('x')}`],
      ['base64 after two bytes', `auth ${b64('Bearer ')}`],
      ['base64 url-safe', `auth ${b64('ab').replace(/\+/gu, '-').replace(/\//gu, '_')}`],
      ['hex', `h=${hex}`],
      ['HEX', `h=${hex.toUpperCase()}`],
      ['URL-encoded', `u=${encodeURIComponent(secret)}`],
      ['percent-encoded bytes', `u=${[...Buffer.from(secret)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')}`],
    ])('removes a copy %s', (_label, text) => {
      const out = scrub(text, [secret]);
      expect(out).toContain(MCP_REDACTED);
      // Nothing long enough to rebuild the secret is left around the redaction.
      expect(out.replace(MCP_REDACTED, '').length).toBeLessThan(text.length - 8);
    });

    it('leaves ordinary text alone, and short values are not matched spread out', () => {
      expect(scrub('a plain answer with numbers 12345', [secret, 'abcd'])).toBe('a plain answer with numbers 12345');
      expect(scrub('a b c d', ['abcd'])).toBe('a b c d');
    });

    it('scrubs every string in a listing, keys and nested values included', () => {
      const tool = { name: 't', description: `uses ${secret}`, inputSchema: { properties: { [secret]: { default: b64('') } } } };
      expect(JSON.stringify(scrubDeep(tool, [secret]))).not.toMatch(/sk-live|Ab3/u);
    });
  });
});
