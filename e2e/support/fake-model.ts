// The fake OpenAI-compatible server (testing/fake-openai) plays back scripted replies. Each
// Playwright worker starts its own (fixtures.ts) and puts its URL in FAKE_OPENAI_URL, so the helpers
// below script and read the model of the worker they run in.
import { repoRoot, type Started, startProcess, stopProcess, waitForLine } from './processes';

/** A models/*.yaml whose only profile, `fake.chat`, is the fake model at `apiBase`. */
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

export interface FakeModelStep {
  text?: string;
  [key: string]: unknown;
}

export async function startFakeModel(): Promise<{ url: string; started: Started }> {
  const started = startProcess(process.execPath, ['--import', 'tsx', 'testing/fake-openai/cli.ts', '--port', '0'], { ...process.env });
  const match = await waitForLine(started, /FAKE_OPENAI_URL=(\S+)/, 30_000, `fake OpenAI server (cwd ${repoRoot})`);
  return { url: match[1], started };
}

export async function stopFakeModel(started: Started): Promise<void> {
  await stopProcess(started.child);
}

function controlUrl(path: string): string {
  const base = process.env.FAKE_OPENAI_URL;
  if (!base) throw new Error('FAKE_OPENAI_URL is not set; does the spec use `test` from e2e/support/fixtures?');
  return new URL(path, new URL(base).origin).toString();
}

async function control(path: string, body?: unknown): Promise<void> {
  const response = await fetch(controlUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fake model control ${path} failed: HTTP ${response.status} ${await response.text()}`);
}

/** Queues the replies the fake model gives to the next chat completions, in order. */
export function scriptModel(steps: FakeModelStep[]): Promise<void> {
  return control('/__control/script', steps);
}

export function resetModel(): Promise<void> {
  return control('/__control/reset');
}

/** One chat request as the fake model received it (the body is what Folio sent). */
export interface RecordedModelRequest {
  method: string;
  path: string;
  body: unknown;
}

/** Every request the fake model received since the last reset, oldest first. */
export async function recordedRequests(): Promise<RecordedModelRequest[]> {
  const response = await fetch(controlUrl('/__control/requests'));
  if (!response.ok) throw new Error(`fake model control /__control/requests failed: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as RecordedModelRequest[];
}
