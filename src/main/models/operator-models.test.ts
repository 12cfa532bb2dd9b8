import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOperatorModels, offerOperatorModels, operatorKey, parseSecretsFile } from './operator-models';
import { resolveApiKey } from './keys';

const temps: string[] = [];
afterEach(() => {
  offerOperatorModels(null);
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-operator-unit-'));
  temps.push(dir);
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

const PRICED = 'api_base: http://127.0.0.1:9/v1\napi_key_env: PLATFORM_KEY\ncurrency: EUR\nprofiles:\n  main:\n    name: M\n    model: m\n    max_context: 1000\n    max_output: 100\n    price: { input: 1, output: 2 }\n';

describe('operator models', () => {
  it('reads NAME=key lines and JSON secrets, never echoing a malformed line', () => {
    expect([...parseSecretsFile('s', '# c\n\nA_KEY= sk-1 \nB=x=y\n')]).toEqual([
      ['A_KEY', 'sk-1'],
      ['B', 'x=y'],
    ]);
    expect([...parseSecretsFile('s', '{"A_KEY":"sk-2"}')]).toEqual([['A_KEY', 'sk-2']]);
    expect(() => parseSecretsFile('s', 'sk-secret-value-without-name')).toThrow(/^s, line 1: expected NAME=key$/);
  });

  it('takes the key from the secrets file over the environment, and binds it to the operator profile only', () => {
    const models = loadOperatorModels(file('platform.yaml', PRICED), file('secrets.env', 'PLATFORM_KEY=from-file\n'), { PLATFORM_KEY: 'from-env' });
    expect(models.notes).toEqual([]);
    offerOperatorModels(models);
    expect(operatorKey({ api_key_env: 'PLATFORM_KEY', source: 'operator' })).toBe('from-file');
    // A tenant's profile naming the same variable gets nothing of the operator's.
    const empty = { get: () => undefined, has: () => false, set: () => undefined };
    expect(resolveApiKey({ api_key_env: 'PLATFORM_KEY', source: 'user' }, empty, {})).toBeUndefined();
  });

  it('says at start what would silently break a budget: a file-level price, a profile without a key', () => {
    const yaml = PRICED.replace('    price: { input: 1, output: 2 }\n', '').replace('currency: EUR\n', 'price: { input: 1, output: 2 }\n');
    const { notes } = loadOperatorModels(file('platform.yaml', yaml), null, {});
    expect(notes).toEqual([
      expect.stringMatching(/platform\.yaml: unknown file-level field "price" ignored \(set it in each profile\)$/),
      'platform.main: no key (PLATFORM_KEY is in neither the secrets file nor the environment); tenants see it without a key',
      'platform.main: no price, so cost_per_month budgets do not count its use',
    ]);
  });

  it('refuses to start on a path with no usable profile', () => {
    expect(() => loadOperatorModels(file('platform.yaml', 'profiles:\n  main:\n    name: no model\n'), null, {})).toThrow(/^--operator-models: no usable profile in .*platform\.yaml/);
    expect(() => loadOperatorModels('/nonexistent/models.yaml', null, {})).toThrow('--operator-models: /nonexistent/models.yaml does not exist');
  });
});
