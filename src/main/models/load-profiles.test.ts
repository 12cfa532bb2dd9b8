import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelProfileInfo } from '../../shared/contract';
import { reasoningModes } from './reasoning';
import { loadModelProfiles } from './load-profiles';
import { toProfileInfo } from './profile-info';

const builtin = fileURLToPath(new URL('../../../config/models', import.meta.url));
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-models-'));
  temps.push(dir);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('shipped profiles', () => {
  it('all load without warnings and fit the contract', () => {
    const { profiles, warnings } = loadModelProfiles({ builtin });
    expect(warnings).toEqual([]);
    expect(profiles.length).toBeGreaterThanOrEqual(6);
    const ids = profiles.map((p) => p.id);
    expect(ids).toContain('deepseek.flash');
    expect(ids).toContain('deepseek.pro');
    for (const stem of ['zhipu', 'qwen', 'openai', 'ollama']) expect(ids.some((id) => id.startsWith(`${stem}.`))).toBe(true);

    const ollama = profiles.filter((p) => p.provider === 'ollama');
    expect(ollama.length).toBeGreaterThan(0);
    for (const p of ollama) expect(p.api_key_env).toBeNull();
    for (const p of profiles.filter((p) => p.provider !== 'ollama')) expect(p.api_key_env).toMatch(/_API_KEY$/);

    for (const p of profiles) {
      expect(p.source).toBe('builtin');
      expect(p.reliable_context).toBeLessThanOrEqual(p.max_context);
      expect(() => ModelProfileInfo.parse(toProfileInfo(p, false))).not.toThrow();
    }
    const flash = profiles.find((p) => p.id === 'deepseek.flash');
    expect(flash).toMatchObject({ provider: 'deepseek', api_base: 'https://api.deepseek.com', api_key_env: 'DEEPSEEK_API_KEY', max_iterations: 30 });
    expect(profiles.find((p) => p.id === 'zhipu.glm46')?.price.currency).toBe('CNY');
  });
});

describe('user profiles', () => {
  it('a broken user yaml yields a warning naming the file; other files still load', () => {
    const user = tempDir({
      'broken.yaml': 'profiles: [this: is: not: yaml',
      'mine.yaml': 'api_base: http://127.0.0.1:8080/v1\nprofiles:\n  small:\n    name: Small\n    model: small-1\n    max_context: 10000\n    max_output: 1000\n',
    });
    const { profiles, warnings } = loadModelProfiles({ builtin, user });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.source).toBe(join(user, 'broken.yaml'));
    expect(warnings[0]?.message).toContain('invalid YAML');
    const mine = profiles.find((p) => p.id === 'mine.small');
    expect(mine).toMatchObject({ source: 'user', provider: 'mine', api_key_env: null, reliable_context: 6000, max_iterations: 30, role: 'chat', thinking_mode: 'none' });
    expect(profiles.some((p) => p.id === 'deepseek.flash')).toBe(true);
  });

  it('an invalid profile is skipped with a warning naming the field; its siblings load', () => {
    const user = tempDir({
      'lab.yaml': [
        'api_base: http://127.0.0.1:8080/v1',
        'profiles:',
        '  bad:',
        '    name: Bad',
        '    model: m',
        '    max_context: lots',
        '    max_output: 10',
        '  typo:',
        '    name: Typo',
        '    model: m',
        '    max_context: 1000',
        '    max_output: 10',
        '    paralel_tools: true',
        '  good:',
        '    name: Good',
        '    model: m',
        '    max_context: 1000',
        '    reliable_context: 2000',
        '    max_output: 10',
        '',
      ].join('\n'),
    });
    const { profiles, warnings } = loadModelProfiles({ builtin, user });
    const messages = warnings.map((w) => w.message);
    expect(warnings.every((w) => w.source === join(user, 'lab.yaml'))).toBe(true);
    expect(messages.some((m) => m.startsWith('lab.bad skipped') && m.includes('max_context'))).toBe(true);
    expect(messages.some((m) => m.includes('lab.typo') && m.includes('paralel_tools'))).toBe(true);
    expect(messages.some((m) => m.startsWith('lab.good skipped') && m.includes('reliable_context'))).toBe(true);
    expect(profiles.map((p) => p.id).filter((id) => id.startsWith('lab.'))).toEqual(['lab.typo']);
  });

  it('overrides a shipped profile by id, field by field', () => {
    const user = tempDir({ 'deepseek.yaml': 'profiles:\n  flash:\n    temperature: 0.1\n    price: { input: 9 }\n' });
    const { profiles, warnings } = loadModelProfiles({ builtin, user });
    expect(warnings).toEqual([]);
    const flashes = profiles.filter((p) => p.id === 'deepseek.flash');
    expect(flashes).toHaveLength(1);
    expect(flashes[0]).toMatchObject({ source: 'user', temperature: 0.1, model: 'deepseek-v4-flash', api_key_env: 'DEEPSEEK_API_KEY', price: { input: 9, output: 0.28, currency: 'USD' } });
    expect(flashes[0]?.file).toBe(join(user, 'deepseek.yaml'));
  });

  it('a repeated load sees an edited, added or removed file, and hands out copies', () => {
    const user = tempDir({ 'deepseek.yaml': 'profiles:\n  flash:\n    temperature: 0.1\n' });
    const flash = () => loadModelProfiles({ builtin, user }).profiles.find((p) => p.id === 'deepseek.flash');
    const first = flash();
    expect(first).toMatchObject({ source: 'user', temperature: 0.1 });
    first!.temperature = 2;
    expect(flash()).toMatchObject({ temperature: 0.1 });
    writeFileSync(join(user, 'deepseek.yaml'), 'profiles:\n  flash:\n    temperature: 0.7\n');
    expect(flash()).toMatchObject({ source: 'user', temperature: 0.7 });
    writeFileSync(join(user, 'mine.yaml'), 'api_base: http://127.0.0.1:8080/v1\nprofiles:\n  small:\n    name: Small\n    model: small-1\n    max_context: 10000\n    max_output: 1000\n');
    expect(loadModelProfiles({ builtin, user }).profiles.map((p) => p.id)).toContain('mine.small');
    rmSync(join(user, 'deepseek.yaml'));
    expect(flash()).toMatchObject({ source: 'builtin' });
  });

  it('a broken override keeps the shipped profile and says so', () => {
    const user = tempDir({ 'deepseek.yaml': 'profiles:\n  flash:\n    thinking_mode: sometimes\n' });
    const { profiles, warnings } = loadModelProfiles({ builtin, user });
    expect(warnings.map((w) => w.message).join('\n')).toMatch(/deepseek\.flash skipped: thinking_mode/);
    expect(warnings.map((w) => w.message).join('\n')).toContain('built-in profile is used');
    expect(profiles.find((p) => p.id === 'deepseek.flash')).toMatchObject({ source: 'builtin', thinking_mode: 'toggle' });
  });

  it('ships DeepSeek V4 with a 1M context and its three reasoning settings, under the old ids', () => {
    const { profiles } = loadModelProfiles({ builtin });
    for (const [id, model] of [['deepseek.flash', 'deepseek-v4-flash'], ['deepseek.pro', 'deepseek-v4-pro']] as const) {
      const p = profiles.find((x) => x.id === id);
      expect(p).toMatchObject({ model, max_context: 1048576, thinking_mode: 'toggle', reasoning_effort_for: { max: 'max' } });
      expect(p && reasoningModes(p)).toEqual(['none', 'thinking', 'max']);
    }
  });

  it('reasoning_effort_for must name declared levels, and an override merges it field by field', () => {
    const bad = tempDir({ 'lab.yaml': 'api_base: http://127.0.0.1:8080/v1\nprofiles:\n  x:\n    name: X\n    model: m\n    max_context: 1000\n    max_output: 10\n    thinking_mode: always\n    reasoning_effort_levels: [low, high]\n    reasoning_effort_for: { max: ultra }\n' });
    expect(loadModelProfiles({ builtin, user: bad }).warnings.map((w) => w.message).join('\n')).toMatch(/lab\.x skipped: reasoning_effort_for\.max/);
    const user = tempDir({ 'deepseek.yaml': 'profiles:\n  pro:\n    reasoning_effort_for: { none: low }\n' });
    const pro = loadModelProfiles({ builtin, user }).profiles.find((p) => p.id === 'deepseek.pro');
    expect(pro?.reasoning_effort_for).toEqual({ max: 'max', none: 'low' });
  });

  it('a missing user folder is not a warning; a missing builtin folder is', () => {
    expect(loadModelProfiles({ builtin, user: join(tmpdir(), 'folio-no-such-dir-xyz') }).warnings).toEqual([]);
    const none = loadModelProfiles({ builtin: join(tmpdir(), 'folio-no-such-dir-xyz') });
    expect(none.profiles).toEqual([]);
    expect(none.warnings).toHaveLength(1);
  });
});
