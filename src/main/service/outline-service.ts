// The person's side of the deck outline: read it, save their edits, approve it. Approval goes
// through the ordinary send-message path, so the agent continues exactly as if the person had typed
// "approved" (and every transport, the run manager and the UI treat it as any other message).
import type { MethodOutput, ServiceHandlers } from '../../shared/contract';
import { FolioError, NotFoundError } from '../../shared/errors';
import { assignOutlineIds, type DeckOutline } from '../../shared/specs/deck-outline';
import { ensureTaskDir, taskDir } from '../workspace/layout';
import { proposedOutline, readOutlineFile, writeOutline } from '../workspace/outline-file';
import type { ServiceContext } from './context';
import { WORK_AREA_SCOPE } from '../agent/approval-policy';

type OutlineHandlers = Pick<ServiceHandlers, 'getOutline' | 'saveOutline' | 'approveOutline'>;
type Send = ServiceHandlers['sendMessage'];

/** Han characters, kana or hangul: the outline is written in an East Asian language. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/u;

/**
 * What the person "says" when approving, in the language of the UI they approved in; without one
 * (the API, the CLI), in the language most of the outline's titles are written in, so one Chinese
 * title in an English deck does not switch it.
 */
export function approvalMessage(outline: DeckOutline, language?: 'en' | 'zh-CN'): string {
  const n = outline.slides.length;
  const chinese = language ? language === 'zh-CN' : outline.slides.filter((s) => CJK.test(s.title)).length * 2 > n;
  return chinese
    ? `大纲已确认（${n} 页）。请按确认后的大纲编写幻灯片并生成。`
    : `Outline approved (${n} slide${n === 1 ? '' : 's'}). Write the deck following the approved outline and render it.`;
}

export function createOutlineHandlers(ctx: ServiceContext, send: Send): OutlineHandlers {
  const { store } = ctx;
  const taskFolder = async (taskId: string): Promise<string> => {
    if (!(await store.tasks.get(taskId))) throw new NotFoundError(`No task ${taskId}`);
    return taskDir(ctx.dataDir, taskId);
  };
  /** A folder for a task that has none yet (an outline saved before any message). */
  const materialized = async (taskId: string): Promise<string> => {
    await taskFolder(taskId);
    const dir = ensureTaskDir(ctx.dataDir, taskId);
    await store.tasks.markMaterialized(taskId);
    return dir;
  };

  return {
    async getOutline(input): Promise<MethodOutput<'getOutline'>> {
      const state = await readOutlineFile(await taskFolder(input.task_id));
      if (state.kind === 'ok') return { outline: state.outline, problem: null };
      return { outline: null, problem: state.kind === 'invalid' ? state.reason : null };
    },
    async saveOutline(input) {
      const outline = proposedOutline(assignOutlineIds(input.slides));
      await writeOutline(await materialized(input.task_id), outline);
      return outline;
    },
    async approveOutline(input) {
      const folder = await taskFolder(input.task_id);
      // The approval starts the next run; while one is going, the agent might still change the outline.
      if (ctx.runs.activeRunFor(input.task_id)) throw new FolioError('conflict', 'The agent is still working; wait for it or stop it, then approve the outline.');
      let slides = input.slides ? assignOutlineIds(input.slides) : null;
      if (!slides) {
        const state = await readOutlineFile(folder);
        if (state.kind === 'invalid') throw new FolioError('invalid_input', state.reason);
        if (state.kind === 'none') throw new NotFoundError(`Task ${input.task_id} has no outline to approve`);
        slides = state.outline.slides;
      }
      const now = Date.now();
      const outline: DeckOutline = { status: 'approved', approved_at: now, updated_at: now, slides };
      await writeOutline(await materialized(input.task_id), outline);
      // Approving the storyline is the yes to writing it: the deck spec under work/ and its renders
      // (a slide change too) run without asking again in this task. Shown and revocable with the task's grants.
      await store.transaction(async (tx) => {
        for (const tool of ['write', 'edit']) await tx.grants.grant(input.task_id, tool, WORK_AREA_SCOPE);
        await tx.grants.grant(input.task_id, 'render_deck', '');
      });
      const { run_id } = await send({ task_id: input.task_id, content: approvalMessage(outline, input.language) });
      return { outline, run_id };
    },
  };
}
