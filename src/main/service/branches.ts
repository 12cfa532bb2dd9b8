// Conversation branches, the person's side: regenerate the last reply, edit one of their messages
// and go on from there, switch between the branches this leaves. The store keeps every branch; the
// run manager makes the branch change and the new run in one transaction, so a crash leaves either
// the old path or the new one with its run, never half of each.
import type { ServiceHandlers, Task } from '../../shared/contract';
import { FolioError, NotFoundError, ValidationError } from '../../shared/errors';
import { ensureTaskDir } from '../workspace/layout';
import type { ServiceContext } from './context';

type BranchHandlers = Pick<ServiceHandlers, 'regenerate' | 'editMessage' | 'listBranches' | 'switchBranch'>;

/** The model id a new run of the task uses (the service's profile choice). */
/** The task's model, or a typed error naming the setting to change when none can be used. */
type ModelFor = (task: Task) => Promise<string | null>;

export function createBranchHandlers(ctx: ServiceContext, modelFor: ModelFor): BranchHandlers {
  const { store } = ctx;
  const taskOf = async (id: string): Promise<Task> => {
    const task = await store.tasks.get(id);
    if (!task) throw new NotFoundError(`No task ${id}`);
    return task;
  };
  // Checked before anything is read, so the answer does not depend on a run that is about to write.
  const idle = (task: Task, what: string): void => {
    if (ctx.runs.activeRunFor(task.id)) throw new FolioError('conflict', `The agent is working on this task; ${what} once it has finished or is stopped.`);
  };

  return {
    async regenerate(input) {
      const task = await taskOf(input.task_id);
      // The model is settled first (it may ask a local server); everything after runs without a pause.
      const model = await modelFor(task);
      idle(task, 'regenerate');
      const asked = await store.messages.lastActive(task.id, 'user');
      if (!asked) throw new FolioError('conflict', 'There is no message to answer again yet.');
      ensureTaskDir(ctx.dataDir, task.id);
      return { run_id: await ctx.runs.start(task.id, { model, branchFrom: asked.seq + 1, brought: ctx.brought }) };
    },
    async editMessage(input) {
      const task = await taskOf(input.task_id);
      const model = await modelFor(task);
      idle(task, 'edit a message');
      const message = await store.messages.activeMessage(task.id, input.message_id);
      if (!message) {
        if ((await store.messages.get(input.message_id))?.task_id === task.id) throw new FolioError('conflict', 'That message is not on the branch shown; switch to its branch first.');
        throw new NotFoundError(`No message ${input.message_id} in task ${task.id}`);
      }
      if (message.role !== 'user') throw new ValidationError('Only your own messages can be edited; regenerate a reply instead.');
      ensureTaskDir(ctx.dataDir, task.id);
      return { run_id: await ctx.runs.start(task.id, { model, userMessage: input.text, branchFrom: message.seq, brought: ctx.brought }) };
    },
    async listBranches(input) {
      const task = await taskOf(input.task_id);
      return { branches: await store.messages.branches(task.id) };
    },
    async switchBranch(input) {
      const task = await taskOf(input.task_id);
      idle(task, 'switch branches');
      await store.messages.switchBranch(task.id, input.message_id);
      return { ok: true };
    },
  };
}
