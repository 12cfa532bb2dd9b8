// Regenerate, edit and switch branches through the real core against the fake model: what the model
// is sent, what the person sees, and what is kept.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeOpenAI } from '../../../testing/fake-openai/server';
import { useFakeModelCores } from './fake-model-cores.test-support';
import { NOT_RUN_REPLACED } from '../agent/conversation-shape';
import { taskDir } from '../workspace/layout';
import { collect, waitForEvent } from './core-test-kit';
import type { Core } from './create-core';

let fake: FakeOpenAI;
const { open } = useFakeModelCores((f) => (fake = f));

/** The conversation of the model's last request, without the system prompt. */
function lastRequest(): { role: string; content: string | null }[] {
  const body = fake.requests.at(-1)!.body as { messages: { role: string; content: string | null }[] };
  return body.messages.filter((m) => m.role !== 'system');
}

async function finish(core: Core, taskId: string, start: Promise<{ run_id: string }>): Promise<string> {
  const { run_id } = await start;
  const events = await collect(core, taskId, run_id);
  expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'done' });
  return run_id;
}

async function shown(core: Core, taskId: string): Promise<string[]> {
  return (await core.handlers.listMessages({ task_id: taskId })).messages.map((m) => `${m.role}:${m.content}`);
}

describe('regenerate', () => {
  it('answers the last message again with only the active path, and keeps the first answer as a branch', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'general' });
    fake.script([{ text: 'Paris.' }, { text: 'Short answer: Paris.' }, { text: 'Lyon is second.' }, { text: 'It is Paris, France.' }]);
    await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content: 'Capital of France?' }));
    await finish(core, task.id, core.handlers.regenerate({ task_id: task.id }));
    // The model saw the question only, not the reply it replaces.
    expect(lastRequest()).toEqual([{ role: 'user', content: 'Capital of France?' }]);
    expect(await shown(core, task.id)).toEqual(['user:Capital of France?', 'assistant:Short answer: Paris.']);

    const { branches } = await core.handlers.listBranches({ task_id: task.id });
    expect(branches).toHaveLength(1);
    expect(branches[0]).toMatchObject({ index: 2, count: 2 });
    const [firstReply, secondReply] = branches[0].siblings;

    // Continuing goes on from the new answer; the model never sees the replaced one.
    await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content: 'And the second city?' }));
    expect(lastRequest().map((m) => m.content)).toEqual(['Capital of France?', 'Short answer: Paris.', 'And the second city?']);

    // Switching back shows the first answer, and a message then continues that branch.
    await core.handlers.switchBranch({ task_id: task.id, message_id: firstReply });
    expect(await shown(core, task.id)).toEqual(['user:Capital of France?', 'assistant:Paris.']);
    expect((await core.handlers.listBranches({ task_id: task.id })).branches).toEqual([{ message_id: firstReply, index: 1, count: 2, siblings: [firstReply, secondReply] }]);
    await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content: 'Sure?' }));
    expect(lastRequest().map((m) => m.content)).toEqual(['Capital of France?', 'Paris.', 'Sure?']);

    // And switching forward again finds the other branch where it was left, follow-up included.
    await core.handlers.switchBranch({ task_id: task.id, message_id: secondReply });
    expect(await shown(core, task.id)).toEqual(['user:Capital of France?', 'assistant:Short answer: Paris.', 'user:And the second city?', 'assistant:Lyon is second.']);
  });

  it('replaces the whole last turn, tool calls and results included; their results stay stored', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'general' });
    fake.script([
      { toolCalls: [{ id: 'call_g1', name: 'glob', arguments: '{"pattern":"**/*.md"}' }] },
      { text: 'No markdown files.' },
      { text: 'Nothing to list.' },
    ]);
    await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content: 'List the notes' }));
    expect(await shown(core, task.id)).toHaveLength(4);
    const { run_id } = await core.handlers.regenerate({ task_id: task.id });
    await collect(core, task.id, run_id);
    expect(lastRequest()).toEqual([{ role: 'user', content: 'List the notes' }]);
    expect(await shown(core, task.id)).toEqual(['user:List the notes', 'assistant:Nothing to list.']);
    // The replaced branch's tool result is still in the store.
    expect((await core.handlers.getToolResult({ task_id: task.id, call_id: 'call_g1' })).is_error).toBe(false);
  });

  it('answers a call that waited for approval as not run on the replaced branch, so no approval is left asking', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'general' });
    fake.script([{ toolCalls: [{ id: 'call_w1', name: 'write', arguments: '{"path":"work/out.txt","content":"x"}' }] }, { text: 'I will not write it.' }]);
    const { run_id } = await core.handlers.sendMessage({ task_id: task.id, content: 'write it' });
    await waitForEvent(core, task.id, run_id, 'approval_required');
    // While the run is active, the branch cannot change.
    await expect(core.handlers.regenerate({ task_id: task.id })).rejects.toMatchObject({ code: 'conflict' });
    const cancelled = collect(core, task.id, run_id);
    await core.handlers.cancelRun({ task_id: task.id, run_id });
    await cancelled;
    expect((await core.handlers.listApprovals({ task_id: task.id })).approvals).toHaveLength(1);

    await finish(core, task.id, core.handlers.regenerate({ task_id: task.id }));
    expect((await core.handlers.listApprovals({ task_id: task.id })).approvals).toEqual([]);
    expect(existsSync(join(taskDir(core.dataDir, task.id), 'work', 'out.txt'))).toBe(false);
    const [old] = (await core.handlers.listBranches({ task_id: task.id })).branches[0].siblings;
    await core.handlers.switchBranch({ task_id: task.id, message_id: old });
    const { messages } = await core.handlers.listMessages({ task_id: task.id });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[2]).toMatchObject({ tool_call_id: 'call_w1', is_error: true, content: NOT_RUN_REPLACED });
  });

  it('is refused when the task has no message yet', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'general' });
    await expect(core.handlers.regenerate({ task_id: task.id })).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('edit a message', () => {
  it('sends the edited text without the later messages, and keeps the original branch viewable', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'general' });
    fake.script([{ text: 'About cats.' }, { text: 'More on cats.' }, { text: 'About dogs.' }]);
    await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content: 'Tell me about cats' }));
    await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content: 'More please' }));
    const before = (await core.handlers.listMessages({ task_id: task.id })).messages;
    const first = before[0];

    await finish(core, task.id, core.handlers.editMessage({ task_id: task.id, message_id: first.id, text: 'Tell me about dogs' }));
    expect(lastRequest()).toEqual([{ role: 'user', content: 'Tell me about dogs' }]);
    expect(await shown(core, task.id)).toEqual(['user:Tell me about dogs', 'assistant:About dogs.']);
    const [fork] = (await core.handlers.listBranches({ task_id: task.id })).branches;
    expect(fork).toMatchObject({ index: 2, count: 2, siblings: [first.id, fork.message_id] });

    await core.handlers.switchBranch({ task_id: task.id, message_id: first.id });
    expect(await shown(core, task.id)).toEqual(['user:Tell me about cats', 'assistant:About cats.', 'user:More please', 'assistant:More on cats.']);
  });

  it('edits a later message: the earlier turns stay, the later ones leave the path', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'general' });
    fake.script([{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'two, edited' }]);
    for (const content of ['first', 'second', 'third']) await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content }));
    const second = (await core.handlers.listMessages({ task_id: task.id })).messages[2];
    expect(second.content).toBe('second');
    await finish(core, task.id, core.handlers.editMessage({ task_id: task.id, message_id: second.id, text: 'second, better' }));
    expect(lastRequest().map((m) => m.content)).toEqual(['first', 'one', 'second, better']);
    expect(await shown(core, task.id)).toEqual(['user:first', 'assistant:one', 'user:second, better', 'assistant:two, edited']);
  });

  it('refuses replies, messages of another branch and unknown messages', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'general' });
    fake.script([{ text: 'a' }, { text: 'b' }]);
    await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content: 'q' }));
    const [question, reply] = (await core.handlers.listMessages({ task_id: task.id })).messages;
    await expect(core.handlers.editMessage({ task_id: task.id, message_id: reply.id, text: 'x' })).rejects.toMatchObject({ code: 'invalid_input' });
    await finish(core, task.id, core.handlers.editMessage({ task_id: task.id, message_id: question.id, text: 'q2' }));
    await expect(core.handlers.editMessage({ task_id: task.id, message_id: question.id, text: 'x' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(core.handlers.editMessage({ task_id: task.id, message_id: 'm_nope', text: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(core.handlers.switchBranch({ task_id: task.id, message_id: 'm_nope' })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('artifacts across branches', () => {
  it('a regenerated reply cannot overwrite an artifact the replaced branch wrote', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'general' });
    await core.handlers.updateTask({ task_id: task.id, approval_mode: 'auto-edit' });
    const write = (id: string, path: string, content: string) => ({ toolCalls: [{ id, name: 'write', arguments: JSON.stringify({ path, content }) }] });
    fake.script([
      write('w1', 'artifacts/summary.md', 'first take'),
      { text: 'Wrote it.' },
      write('w2', 'artifacts/summary.md', 'second take'),
      write('w3', 'artifacts/summary-v2.md', 'second take'),
      { text: 'Wrote a new version.' },
    ]);
    await finish(core, task.id, core.handlers.sendMessage({ task_id: task.id, content: 'Summarize' }));
    await finish(core, task.id, core.handlers.regenerate({ task_id: task.id }));
    const artifacts = join(taskDir(core.dataDir, task.id), 'artifacts');
    expect(readFileSync(join(artifacts, 'summary.md'), 'utf8')).toBe('first take');
    expect(readFileSync(join(artifacts, 'summary-v2.md'), 'utf8')).toBe('second take');
    // The refusal reached the model as a tool error it could act on.
    expect((await core.handlers.getToolResult({ task_id: task.id, call_id: 'w2' })).content).toMatch(/never overwritten/);
    const { files } = await core.handlers.listFiles({ task_id: task.id });
    expect(files.map((f) => f.path).filter((p) => p.startsWith('artifacts/')).sort()).toEqual(['artifacts/summary-v2.md', 'artifacts/summary.md']);
  });
});
