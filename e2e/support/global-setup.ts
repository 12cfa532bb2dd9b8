// Once per run: the fake model server and a data folder whose only model profile points at it.
// Folio itself is started per worker (see fixtures.ts) so tests can restart it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModel, stopFakeModel } from './fake-model';

export function fakeProfileYaml(apiBase: string): string {
  return [
    'provider: fake',
    `api_base: ${apiBase}`,
    'api_key_env: FAKE_API_KEY',
    'profiles:',
    '  chat:',
    '    model: fake-model',
    '    name: Fake',
    '    role: chat',
    '    max_context: 32000',
    '    max_output: 4000',
    '    parallel_tools: true',
    '    thinking_mode: none',
    '    reasoning_effort_levels: []',
    '    temperature: 0.2',
    '    price: {input: 1, output: 2}',
    '',
  ].join('\n');
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const fake = await startFakeModel();
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-e2e-'));
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  writeFileSync(join(dataDir, 'models', 'fake.yaml'), fakeProfileYaml(fake.url));
  // Workers inherit the environment as it is after global setup.
  process.env.FAKE_OPENAI_URL = fake.url;
  process.env.FOLIO_E2E_DATA_DIR = dataDir;
  return async () => {
    await stopFakeModel(fake.started);
    if (!process.env.FOLIO_E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
}
