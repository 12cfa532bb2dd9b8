// Text another part of the UI puts into the composer (an MCP prompt rendered with its arguments): the
// composer takes it, appends it to what is being typed, and clears it.
import { create } from 'zustand';

interface ComposerInsertState {
  pending: string | null;
  insert: (text: string) => void;
  clear: () => void;
}

export const useComposerInsert = create<ComposerInsertState>((set) => ({
  pending: null,
  insert: (text) => set({ pending: text }),
  clear: () => set({ pending: null }),
}));
