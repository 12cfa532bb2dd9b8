// A chat backend for tests: every client call is recorded and answered from a table the test can
// change, and run events are sent by the test through `emit`.
import type { FolioClient, RunEvent, Task } from '../../../shared/contract';
import type { ChatBackend } from './backend';

export const task: Task = {
  id: 't1', title: 'Notes', description: '', mode: 'general', status: 'active', model: null, approval_mode: 'ask', workspace_path: null,
  allow_network: false, prompt_tokens: 0, completion_tokens: 0, cost: 0, created_at: 0, updated_at: 0, last_run: null, reasoning: null,
  mcp_servers: null, project_id: null,
};

export function fakeBackend() {
  const calls: { method: string; input: unknown }[] = [];
  let listener: ((e: RunEvent) => void) | null = null;
  const answers: Record<string, unknown> = { createTask: task, getTask: task, sendMessage: { run_id: 'r1' }, decideApproval: { ok: true } };
  const client = new Proxy({}, {
    get: (_t, method: string) => async (input: unknown) => {
      calls.push({ method, input });
      const answer = answers[method];
      if (answer instanceof Error) throw answer;
      return typeof answer === 'function' ? (answer as (i: unknown) => unknown)(input) : answer;
    },
  }) as FolioClient;
  const backend: ChatBackend = {
    client,
    subscribeRun: (_task, _run, l) => {
      listener = l;
      return () => undefined;
    },
    close: async () => undefined,
    where: '/data',
  };
  let seq = 0;
  const emit = (body: Record<string, unknown>) => listener?.({ run_id: 'r1', task_id: 't1', seq: ++seq, at: 0, ...body } as RunEvent);
  return { backend, calls, emit, answers };
}

