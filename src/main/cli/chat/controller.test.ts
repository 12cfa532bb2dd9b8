import { describe, expect, it } from 'vitest';
import { FolioError } from '../../../shared/errors';
import { APPROVAL_REASON_MAX_CHARS } from '../../../shared/contract';
import { ChatController, DOUBLE_CTRL_C_MS } from './controller';
import { fakeBackend, task } from './fake-backend.test-support';

const keys = (c: ChatController) => c.view.screen.items.map((i) => (i.kind === 'notice' ? i.key : i.kind === 'text' ? i.text : i.kind));

describe('the chat controller', () => {
  it('opens a general task on the first message, with the model and approval mode chosen before it', async () => {
    const { backend, calls, answers } = fakeBackend();
    answers.listModels = { profiles: [{ id: 'fake.main' }], warnings: [] };
    answers.updateTask = { ...task, approval_mode: 'auto' };
    const c = new ChatController({ backend });
    await c.submit('/model fake.main');
    await c.submit('/approvals auto');
    await c.submit('hello');
    expect(calls.map((x) => x.method)).toEqual(['listModels', 'createTask', 'updateTask', 'sendMessage']);
    expect(calls[1]?.input).toEqual({ mode: 'general', model: 'fake.main' });
    expect(calls[2]?.input).toEqual({ task_id: 't1', approval_mode: 'auto' });
    expect(keys(c)).toEqual(['model.setNext', 'mode.setNext', 'task.created', 'user']);
    expect(c.running).toBe(true);
  });

  it('refuses a second message while a reply runs, and an unknown model', async () => {
    const { backend, answers } = fakeBackend();
    answers.listModels = { profiles: [{ id: 'fake.main' }], warnings: [] };
    const c = new ChatController({ backend });
    await c.submit('one');
    await c.submit('two');
    await c.submit('/model nope');
    expect(keys(c).slice(-2)).toEqual(['run.busy', 'model.unknown']);
  });

  it('/new without a mode asks for one; /resume without an id lists the last ten to pick from', async () => {
    const { backend, calls, answers } = fakeBackend();
    const c = new ChatController({ backend });
    await c.submit('/new Budget');
    expect(c.view.prompt).toEqual({ kind: 'pickMode', title: 'Budget' });
    await c.submit('3');
    expect(calls.at(-1)).toEqual({ method: 'createTask', input: { mode: 'proposal', title: 'Budget' } });
    expect(c.view.prompt.kind).toBe('input');

    answers.listTasks = { tasks: Array.from({ length: 12 }, (_, i) => ({ ...task, id: `t${i}`, title: `Task ${i}` })) };
    answers.getTask = (input: { task_id: string }) => ({ ...task, id: input.task_id });
    answers.listMessages = { messages: [], has_more: false };
    await c.submit('/resume');
    expect(c.view.prompt.kind === 'pickTask' && c.view.prompt.tasks.length).toBe(10);
    await c.submit('11');
    expect(keys(c).at(-1)).toBe('pick.invalid');
    await c.submit('2');
    expect(c.view.task?.id).toBe('t1');
    await c.submit('/resume last');
    expect(c.view.task?.id).toBe('t0');
  });

  it('/resume last after /new and Enter reopens the earlier conversation and deletes the empty task; /done acts on the one on screen', async () => {
    const { backend, calls, answers } = fakeBackend();
    const earlier = { ...task, id: 't_old', title: 'Say hello', updated_at: 1 };
    const fresh = { ...task, id: 't_new', title: '', updated_at: 2 };
    answers.createTask = fresh;
    answers.listTasks = { tasks: [fresh, earlier] };
    answers.getTask = (input: { task_id: string }) => (input.task_id === earlier.id ? earlier : fresh);
    answers.listMessages = { messages: [{ id: 'm1', role: 'user', content: 'Say hello' }], has_more: false };
    const c = new ChatController({ backend });
    await c.submit('/new');
    await c.submit('');
    expect(c.view.task?.id).toBe('t_new');
    await c.submit('/resume last');
    expect(c.view.task?.id).toBe('t_old');
    expect(calls).toContainEqual({ method: 'deleteTask', input: { task_id: 't_new' } });
    expect(c.view.screen.items.some((i) => i.kind === 'user' && i.text === 'Say hello')).toBe(true);
    await c.submit('/done');
    expect(calls.at(-1)).toEqual({ method: 'updateTask', input: { task_id: 't_old', status: 'completed' } });
  });

  it('keeps a task once something was said in or about it, and leaves an untouched one on exit', async () => {
    const { backend, calls, answers } = fakeBackend();
    answers.createTask = { ...task, title: '' };
    answers.listTasks = { tasks: [{ ...task, title: '' }] };
    const c = new ChatController({ backend });
    await c.submit('/new general');
    await c.submit('/desc the budget');
    await c.submit('/resume last');
    await c.close();
    expect(calls.map((x) => x.method)).not.toContain('deleteTask');

    const second = fakeBackend();
    second.answers.createTask = { ...task, title: '' };
    const d = new ChatController({ backend: second.backend });
    await d.submit('/new coding');
    await d.close();
    expect(second.calls.at(-1)).toEqual({ method: 'deleteTask', input: { task_id: 't1' } });
  });

  it('--mode and --desc: a description opens the task at start in that mode; a mode alone waits for the first message', async () => {
    const { backend, calls } = fakeBackend();
    const c = new ChatController({ backend, initial: { mode: 'coding', description: 'x', approvalMode: 'auto-edit' } });
    await c.start(undefined);
    expect(calls[0]).toEqual({ method: 'createTask', input: { mode: 'coding', description: 'x' } });
    expect(calls[1]).toEqual({ method: 'updateTask', input: { task_id: 't1', approval_mode: 'auto-edit' } });
    await c.close();
    expect(calls.map((x) => x.method)).not.toContain('deleteTask');

    const lazy = fakeBackend();
    const d = new ChatController({ backend: lazy.backend, initial: { mode: 'ppt' } });
    await d.start(undefined);
    expect(lazy.calls).toEqual([]);
    expect(keys(d)).toEqual(['task.noneMode']);
    await d.submit('a deck on Q3');
    expect(lazy.calls[0]).toEqual({ method: 'createTask', input: { mode: 'ppt' } });
  });

  it('/done and /abandon close the task so the next message opens a new one; errors are shown as messages', async () => {
    const { backend, calls, answers } = fakeBackend();
    const c = new ChatController({ backend });
    await c.submit('/done');
    expect(keys(c)).toEqual(['task.noTask']);
    await c.submit('/new general');
    await c.submit('/abandon');
    expect(calls.at(-1)).toEqual({ method: 'updateTask', input: { task_id: 't1', status: 'abandoned' } });
    expect(c.view.task).toBeNull();
    answers.sendMessage = new FolioError('not_found', 'No usable model: add a key in Settings → Models.', { name: 'NoUsableModelError' });
    await c.submit('hi');
    expect(keys(c).at(-1)).toBe('No usable model: add a key in Settings → Models.');
    expect(c.running).toBe(false);
  });

  it('a plan declined with a reason too long for the model says so and still waits for one', async () => {
    const { backend, calls, emit } = fakeBackend();
    const c = new ChatController({ backend });
    await c.submit('write the proposal');
    emit({ type: 'approval_required', call_id: 'c1', name: 'propose_plan', arguments: '{"content":"# Plan"}', kind: 'edit', risk: 'standard', detail: null });
    await c.submit('n');
    await c.submit('x'.repeat(APPROVAL_REASON_MAX_CHARS + 1));
    expect(keys(c).at(-1)).toBe('approval.reasonTooLong');
    expect(c.view.prompt).toEqual({ kind: 'declineReason', callId: 'c1' });
    await c.submit('shorter');
    expect(calls.at(-1)).toEqual({ method: 'decideApproval', input: { task_id: 't1', run_id: 'r1', call_id: 'c1', decision: 'deny', reason: 'shorter' } });
  });

  it('a line typed for a declined plan after its run ended is what the prompt then showed: a message', async () => {
    const { backend, calls, emit, answers } = fakeBackend();
    const c = new ChatController({ backend });
    await c.submit('write the proposal');
    emit({ type: 'approval_required', call_id: 'c1', name: 'propose_plan', arguments: '{"content":"# Plan"}', kind: 'edit', risk: 'standard', detail: null });
    await c.submit('n');
    emit({ type: 'run_finished', reason: 'cancelled', duration_ms: 5 });
    answers.sendMessage = { run_id: 'r2' };
    await c.submit('start again');
    expect(calls.at(-1)).toEqual({ method: 'sendMessage', input: { task_id: 't1', content: 'start again' } });
    expect(c.view.prompt).toEqual({ kind: 'input' });
  });

  it('Ctrl-C cancels a running reply; a second one within two seconds exits; at an idle prompt it exits', async () => {
    let now = 1_000_000;
    const { backend, calls } = fakeBackend();
    const c = new ChatController({ backend, now: () => now });
    await c.submit('long job');
    expect(await c.interrupt()).toBe('cancelling');
    expect(calls.at(-1)).toEqual({ method: 'cancelRun', input: { task_id: 't1', run_id: 'r1' } });
    now += DOUBLE_CTRL_C_MS - 1;
    expect(await c.interrupt()).toBe('exit');
    const idle = new ChatController({ backend: fakeBackend().backend });
    expect(await idle.interrupt()).toBe('exit');
  });
});
