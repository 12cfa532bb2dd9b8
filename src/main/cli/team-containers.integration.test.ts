// The team service running the model's programs in per-task containers on a real engine (podman in
// CI), as an operator deploys it (docs/deploy.md): a run_python call of the fake model executes in
// the task's container, writes into the task folder, and what comes back to the model names neither
// the worker's storage path nor the container. Needs PostgreSQL, a container engine and the tools
// image (deploy/container/build-image.sh); each skips with what is missing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntry, Message, PendingApproval, Run, Task } from '../../shared/contract/entities';
import { pgSkipReason } from '../../../testing/postgres/test-database';
import { realContainerEngine, taskContainers } from '../sandbox/container-engine.test-support';
import { tenantDataDir } from '../workspace/storage';
import { taskDir } from '../workspace/layout';
import { startTeamServer, type TeamServer } from './team-server.test-support';

const engine = realContainerEngine();
const skip = pgSkipReason() ?? engine.skip;
if (skip !== null) console.warn(`team service container run skipped: ${skip}`);

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.url}: ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

async function poll<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe.skipIf(skip !== null)('team service: programs run in the task\'s container', () => {
  let s: TeamServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    // The workers' executor settings, as the environment gives them (read at the first tool list).
    const { options } = engine;
    Object.assign(process.env, {
      FOLIO_EXECUTOR: 'container',
      FOLIO_EXECUTOR_RUNTIME: engine.runtime,
      ...(options.ociRuntime ? { FOLIO_EXECUTOR_OCI_RUNTIME: options.ociRuntime } : {}),
      ...(options.ulimits ? { FOLIO_EXECUTOR_ULIMITS: options.ulimits.join(',') } : {}),
      ...(options.image ? { FOLIO_EXECUTOR_IMAGE: options.image } : {}),
    });
    s = await startTeamServer(['acme']);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  });

  it('runs a run_python call in the container: the file lands in the task folder, the result shows no host path or container', async () => {
    const task = await json<Task>(await s.as('acme', 'alice', '/v1/tasks', { method: 'POST', json: { mode: 'general', model: 'fake.main', title: 'analysis' } }), 201);
    const code = [
      'import os, socket',
      "os.makedirs('work', exist_ok=True)",
      "open('work/made-in-container.txt', 'w').write('42')",
      "print('cwd', os.getcwd(), 'host', socket.gethostname())",
      "print(open('/proc/self/mountinfo').read())",
      "print(open('/proc/self/cgroup').read())",
    ].join('\n');
    s.fake.script([
      { toolCalls: [{ id: 'call_py', name: 'run_python', arguments: JSON.stringify({ code }) }], usage: { prompt: 20, completion: 5 } },
      { text: 'Done.', usage: { prompt: 30, completion: 2 } },
    ]);
    const { run_id: runId } = await json<{ run_id: string }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`, { method: 'POST', json: { content: 'Analyse' } }), 200);
    // run_python asks first; the person allows it once.
    await poll('the approval', async () => {
      const { approvals } = await json<{ approvals: PendingApproval[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/approvals`), 200);
      return approvals.find((a) => a.call_id === 'call_py');
    });
    await json(await s.as('acme', 'alice', `/v1/tasks/${task.id}/runs/${runId}/approvals/call_py`, { method: 'POST', json: { decision: 'allow_once' } }), 200);
    const run = await poll('the run to end', async () => {
      const { runs } = await json<{ runs: Run[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/runs`), 200);
      const found = runs.find((r) => r.id === runId);
      return found && found.status !== 'running' ? found : undefined;
    });
    expect(run.status).toBe('done');

    // The task's container is still there (idle reclaim is minutes away): one, labelled with the task.
    const containers = taskContainers(engine, task.id);
    expect(containers).toHaveLength(1);
    const [container] = containers;

    const { messages } = await json<{ messages: Message[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/messages`), 200);
    const result = messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_py');
    expect(result?.is_error).toBe(false);
    const content = result?.content ?? '';
    expect(content).toContain('cwd /workspace host sandbox');
    expect(content).toContain('Files written: work/made-in-container.txt');
    // What the model read: the same text, in its next request.
    const lastRequest = JSON.stringify(s.fake.requests.at(-1)?.body ?? {});
    expect(lastRequest).toContain('cwd /workspace host sandbox');
    const folder = taskDir(tenantDataDir(s.storageRoot, 'acme'), task.id);
    for (const text of [content, lastRequest]) {
      expect(text).not.toContain(s.storageRoot);
      expect(text).not.toContain(container?.id.slice(0, 12));
      expect(text).not.toContain(container?.name);
    }

    expect(readFileSync(`${folder}/work/made-in-container.txt`, 'utf8')).toBe('42');
    const { files } = await json<{ files: FileEntry[] }>(await s.as('acme', 'alice', `/v1/tasks/${task.id}/files`), 200);
    expect(files.map((f) => f.path)).toContain('work/made-in-container.txt');
  }, 180_000);
});
