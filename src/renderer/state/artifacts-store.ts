// The right panel's tab, the selected artifact, what the machine can do with artifacts (open them,
// export PDF) and the exports in flight.
import { create } from 'zustand';
import type { FileEntry, MethodOutput } from '../../shared/contract';
import { getApi } from './api';
import { useFiles } from './files-store';
import { panelShown, useLayout } from './layout-store';
import { toErrorInfo, type ErrorInfo } from './notices';

export type PanelTab = 'files' | 'artifacts';
export type ArtifactType = 'deck' | 'document' | 'pdf';

const ARTIFACT_TYPES: Record<string, ArtifactType> = { pptx: 'deck', docx: 'document', pdf: 'pdf' };

export function artifactType(path: string): ArtifactType | null {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  return ARTIFACT_TYPES[ext] ?? null;
}

/** The task's decks, documents and PDFs, newest first. */
export function listArtifacts(files: readonly FileEntry[]): FileEntry[] {
  return files
    .filter((f) => f.kind === 'artifact' && artifactType(f.path) !== null)
    .sort((a, b) => b.created_at - a.created_at || a.path.localeCompare(b.path));
}

export function fileName(path: string): string {
  return path.split('/').pop() ?? path;
}

/** `artifacts/deck.pptx` → `artifacts/deck.pdf`: where LibreOffice's export lands. */
export function pdfPathFor(path: string): string {
  return path.replace(/\.[^./]+$/, '.pdf');
}

export type Capabilities = MethodOutput<'getCapabilities'>;

interface ArtifactsState {
  tab: PanelTab;
  /** Selected artifact path, per task, so switching tasks doesn't lose the choice. */
  selected: Record<string, string>;
  capabilities: Capabilities | null;
  /** Paths being exported to PDF. */
  exporting: string[];
  error: ErrorInfo | null;
  /** A source file opened in the Results tab (from the files list or a citation), per task, at a page. */
  /** The source shown in the panel per task, and the tab it was opened from (closing goes back there). */
  sources: Record<string, { path: string; page: number | null; from: PanelTab }>;
  setTab: (tab: PanelTab) => void;
  /** Shows a task's source in the right panel, at a page when one is given. */
  showSource: (taskId: string, path: string, page?: number | null) => void;
  closeSource: (taskId: string) => void;
  select: (taskId: string, path: string) => void;
  loadCapabilities: () => Promise<void>;
  /** Desktop: opens with the system app (or reveals in its folder). Web: downloads. */
  open: (entry: FileEntry, reveal?: boolean) => Promise<void>;
  /** notes: a deck as notes pages (each slide above its speaker notes). */
  exportPdf: (entry: FileEntry, opts?: { notes?: boolean }) => Promise<void>;
  /** A render tool finished: reload the files and show the newest artifact. */
  afterRender: (taskId: string) => Promise<void>;
  dismissError: () => void;
}

export const useArtifacts = create<ArtifactsState>((set, get) => ({
  tab: 'files',
  selected: {},
  capabilities: null,
  exporting: [],
  error: null,
  sources: {},

  setTab: (tab) => set({ tab }),

  showSource: (taskId, path, page = null) => {
    set((s) => ({ sources: { ...s.sources, [taskId]: { path, page, from: s.sources[taskId]?.from ?? s.tab } }, tab: 'artifacts' }));
    const layout = useLayout.getState();
    if (!panelShown(layout)) layout.togglePanel();
  },

  closeSource: (taskId) =>
    set((s) => {
      const { [taskId]: closed, ...rest } = s.sources;
      return { sources: rest, tab: closed?.from ?? s.tab };
    }),

  select: (taskId, path) => set((s) => ({ selected: { ...s.selected, [taskId]: path } })),

  loadCapabilities: async () => {
    if (get().capabilities) return;
    try {
      set({ capabilities: await getApi().client.getCapabilities({}) });
    } catch (err) {
      set({ error: toErrorInfo(err) });
    }
  },

  open: async (entry, reveal) => {
    set({ error: null });
    try {
      if (get().capabilities?.desktop) await getApi().client.openPath({ task_id: entry.task_id, path: entry.path, ...(reveal ? { reveal: true } : {}) });
      else await useFiles.getState().download(entry);
    } catch (err) {
      set({ error: toErrorInfo(err) });
    }
  },

  exportPdf: async (entry, opts) => {
    if (get().exporting.includes(entry.path)) return;
    set((s) => ({ exporting: [...s.exporting, entry.path], error: null }));
    try {
      const result = await getApi().client.exportPdf({ task_id: entry.task_id, path: entry.path, ...(opts?.notes ? { notes: true } : {}) });
      await useFiles.getState().load(entry.task_id);
      get().select(entry.task_id, result.path);
    } catch (err) {
      set({ error: toErrorInfo(err) });
    } finally {
      set((s) => ({ exporting: s.exporting.filter((p) => p !== entry.path) }));
    }
  },

  afterRender: async (taskId) => {
    await useFiles.getState().load(taskId);
    const files = useFiles.getState();
    if (files.taskId !== taskId) return;
    const newest = listArtifacts(files.files)[0];
    if (!newest) return;
    get().select(taskId, newest.path);
    set({ tab: 'artifacts' });
  },

  dismissError: () => set({ error: null }),
}));
