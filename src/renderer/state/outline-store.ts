// The open task's deck outline: what is stored (proposed or approved), the person's draft while they
// edit it, and saving and approving. An `outline_proposed` run event replaces what is shown.
import { create } from 'zustand';
import type { DeckOutline } from '../../shared/specs/deck-outline';
import { type DraftRow, type DraftSource, checkDraft, draftFromOutline, newDraftRow } from '../lib/outline-draft';
import { getApi } from './api';
import { openChat as useChat } from './open-chat';
import { toErrorInfo, type ErrorInfo } from './notices';
import { currentLanguage } from '../i18n';

export type RowPatch = Partial<Pick<DraftRow, 'title' | 'layout' | 'points' | 'sources'>>;

interface OutlineState {
  taskId: string | null;
  outline: DeckOutline | null;
  /** Why work/outline.json could not be read, when it exists but is not an outline. */
  problem: string | null;
  /** The rows being edited; null when the outline is shown read-only. */
  draft: DraftRow[] | null;
  dirty: boolean;
  busy: boolean;
  error: ErrorInfo | null;
  load: (taskId: string) => Promise<void>;
  /** The agent proposed an outline in the open task. */
  received: (taskId: string, outline: DeckOutline) => void;
  startEditing: () => void;
  cancelEditing: () => void;
  setRows: (rows: DraftRow[]) => void;
  updateRow: (key: string, patch: RowPatch) => void;
  updateSource: (key: string, index: number, patch: Partial<DraftSource>) => void;
  addRow: (afterKey?: string) => void;
  removeRow: (key: string) => void;
  save: () => Promise<void>;
  approve: () => Promise<void>;
  dismissError: () => void;
}

/** A proposed outline opens for editing; an approved one is shown read-only until "edit again". */
function view(outline: DeckOutline | null): Pick<OutlineState, 'outline' | 'draft' | 'dirty'> {
  return { outline, draft: outline && outline.status === 'proposed' ? draftFromOutline(outline) : null, dirty: false };
}

export const useOutline = create<OutlineState>((set, get) => {
  const stillOpen = (taskId: string): boolean => get().taskId === taskId;
  const edit = (rows: (draft: DraftRow[]) => DraftRow[]) => {
    const draft = get().draft;
    if (draft) set({ draft: rows(draft), dirty: true });
  };
  const checked = () => {
    const draft = get().draft;
    if (!draft) return null;
    const result = checkDraft(draft);
    return result.ok ? result.rows : null;
  };

  return {
    taskId: null,
    outline: null,
    problem: null,
    draft: null,
    dirty: false,
    busy: false,
    error: null,

    load: async (taskId) => {
      set({ taskId, outline: null, problem: null, draft: null, dirty: false, busy: false, error: null });
      try {
        const res = await getApi().client.getOutline({ task_id: taskId });
        if (stillOpen(taskId)) set({ ...view(res.outline), problem: res.problem });
      } catch (err) {
        if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
      }
    },

    received: (taskId, outline) => {
      if (stillOpen(taskId)) set({ ...view(outline), problem: null, error: null });
    },

    startEditing: () => {
      const { outline } = get();
      if (outline) set({ draft: draftFromOutline(outline), dirty: false });
    },

    cancelEditing: () => set((s) => view(s.outline)),

    setRows: (rows) => edit(() => rows),

    updateRow: (key, patch) => edit((rows) => rows.map((r) => (r.key === key ? { ...r, ...patch } : r))),

    updateSource: (key, index, patch) =>
      edit((rows) => rows.map((r) => (r.key === key ? { ...r, sources: r.sources.map((s, i) => (i === index ? { ...s, ...patch } : s)) } : r))),

    addRow: (afterKey) =>
      edit((rows) => {
        const at = afterKey === undefined ? rows.length : rows.findIndex((r) => r.key === afterKey) + 1;
        const next = rows.slice();
        next.splice(at, 0, newDraftRow(at > 0 ? rows[at - 1]?.layout : undefined));
        return next;
      }),

    removeRow: (key) => edit((rows) => rows.filter((r) => r.key !== key)),

    save: async () => {
      const { taskId } = get();
      const rows = checked();
      if (!taskId || !rows) return;
      set({ busy: true, error: null });
      try {
        const outline = await getApi().client.saveOutline({ task_id: taskId, slides: rows });
        if (stillOpen(taskId)) set({ ...view(outline), problem: null });
      } catch (err) {
        if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
      } finally {
        if (stillOpen(taskId)) set({ busy: false });
      }
    },

    approve: async () => {
      const { taskId } = get();
      const rows = checked();
      if (!taskId || !rows) return;
      set({ busy: true, error: null });
      try {
        // The approval is a message to the agent: the chat follows the run it starts.
        await useChat.getState().runFrom(taskId, async () => {
          const res = await getApi().client.approveOutline({ task_id: taskId, slides: rows, language: currentLanguage() });
          if (stillOpen(taskId)) set({ ...view(res.outline), problem: null });
          return res;
        });
      } catch (err) {
        if (stillOpen(taskId)) set({ error: toErrorInfo(err) });
      } finally {
        if (stillOpen(taskId)) set({ busy: false });
      }
    },

    dismissError: () => set({ error: null }),
  };
});
