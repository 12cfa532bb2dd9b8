// The fake OpenAI-compatible server (testing/fake-openai) plays back scripted replies.
import { repoRoot, type Started, startProcess, stopProcess, waitForLine } from './processes';

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
  if (!base) throw new Error('FAKE_OPENAI_URL is not set; is the e2e global setup running?');
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
