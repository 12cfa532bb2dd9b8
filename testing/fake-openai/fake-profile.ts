// A validated ModelProfile pointing at a fake server, for tests of the client, the probe and the loop.
import { ProfileFields, type ModelProfile } from '../../src/main/models/profile-schema';

export function fakeProfile(url: string, overrides: Record<string, unknown> = {}): ModelProfile {
  const fields = ProfileFields.parse({
    provider: 'fake',
    name: 'Fake model',
    model: 'fake-model',
    api_base: url,
    api_key_env: 'FAKE_API_KEY',
    max_context: 32768,
    max_output: 4096,
    price: { input: 2, output: 8 },
    ...overrides,
  });
  return { ...fields, id: 'fake.main', source: 'builtin', file: 'fake.yaml' };
}
