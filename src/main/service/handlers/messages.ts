// A task's conversation and its runs: read messages, send one (which starts a run), continue, cancel,
// and read a tool call's full result.
import type { ServiceHandlers } from '../../../shared/contract';
import { NotFoundError } from '../../../shared/errors';
import { pickProfile } from '../../assembly/profiles';
import { ensureTaskDir, taskDir } from '../../workspace/layout';
import { requireTask, type ServiceContext } from '../context';
import { checkSlideContext } from '../slide-context';
import { formatSlideRequest } from '../../../shared/slide-request';
import { readArtifactPreview } from './artifact-preview';

export type MessageHandlers = Pick<ServiceHandlers, 'listMessages' | 'sendMessage' | 'listRuns' | 'cancelRun' | 'continueTask' | 'getToolResult'>;

export function messageHandlers(ctx: ServiceContext): MessageHandlers {
  const { store } = ctx;
  return {
    async listMessages(input) {
      await requireTask(ctx, input.task_id);
      return store.messages.list(input.task_id, { beforeSeq: input.before_seq, limit: input.limit });
    },
    async sendMessage(input) {
      const task = await requireTask(ctx, input.task_id);
      // Before anything is stored: a task without a usable model fails now, saying what to set up.
      const profile = await pickProfile(ctx, task);
      // Slides selected in a deck's preview: checked against that deck, then written into the message.
      const content = input.context
        ? formatSlideRequest(checkSlideContext(input.context, await readArtifactPreview(taskDir(ctx.dataDir, task.id), input.context.artifact_path)), input.content)
        : input.content;
      ensureTaskDir(ctx.dataDir, task.id);
      await store.tasks.markMaterialized(task.id);
      if (!task.title) await store.tasks.update(task.id, { title: titleFrom(input.content) });
      const run_id = await ctx.runs.start(task.id, { userMessage: content, model: profile.id, brought: ctx.brought });
      return { run_id };
    },
    async listRuns(input) {
      await requireTask(ctx, input.task_id);
      return { runs: await store.runs.list(input.task_id) };
    },
    async cancelRun(input) {
      await ctx.runs.cancel(input.task_id, input.run_id);
      return { ok: true };
    },
    async continueTask(input) {
      const task = await requireTask(ctx, input.task_id);
      const profile = await pickProfile(ctx, task);
      return { run_id: await ctx.runs.start(task.id, { model: profile.id, brought: ctx.brought }) };
    },
    async getToolResult(input) {
      await requireTask(ctx, input.task_id);
      const message = await store.messages.findToolResult(input.task_id, input.call_id);
      if (!message) throw new NotFoundError(`No result for tool call ${input.call_id}`);
      return { call_id: input.call_id, content: message.content, is_error: message.is_error };
    },
  };
}

/** A new task without a title is named after the first line of its first message. */
export function titleFrom(content: string): string {
  const line = content.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
