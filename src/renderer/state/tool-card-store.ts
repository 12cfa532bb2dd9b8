// What the person opened in each tool card: the output expanded (or left as a short preview), the
// arguments shown, and the full result once fetched. Kept here rather than in the card, because the
// virtual list unmounts rows scrolled out of view, and a card coming back must show what it showed
// (and so have the height it was measured at).
import { useSyncExternalStore } from 'react';
import { createStore } from 'zustand/vanilla';

type Part = 'output' | 'args' | 'raw';

interface ToolCardState {
  /** Keys (`toolCardKey`) of the cards whose output is expanded; the rest show a short preview. */
  outputExpanded: ReadonlySet<string>;
  /** Keys of the cards whose arguments are shown. */
  argsShown: ReadonlySet<string>;
  /** Keys of the cards whose raw (model-facing) output is shown below their summary. */
  rawShown: ReadonlySet<string>;
  /** Full results fetched on request, by key. */
  full: ReadonlyMap<string, string>;
  /** Counts the changes above: the list re-checks its rows' places in the same commit as a card changes height. */
  changes: number;
  setOpen: (key: string, part: Part, open: boolean) => void;
  setFull: (key: string, content: string) => void;
}

/** Call ids are unique within a task; the task is part of the key so two tasks can never share one. */
export function toolCardKey(taskId: string, callId: string): string {
  return `${taskId}\u0000${callId}`;
}

const FIELD = { output: 'outputExpanded', args: 'argsShown', raw: 'rawShown' } as const;

export const toolCards = createStore<ToolCardState>((set) => ({
  outputExpanded: new Set(),
  argsShown: new Set(),
  rawShown: new Set(),
  full: new Map(),
  changes: 0,
  setOpen: (key, part, open) =>
    set((state) => {
      const current = state[FIELD[part]];
      if (current.has(key) === open) return state;
      const next = new Set(current);
      if (open) next.add(key);
      else next.delete(key);
      return { [FIELD[part]]: next, changes: state.changes + 1 };
    }),
  setFull: (key, content) => set((state) => ({ full: new Map(state.full).set(key, content), changes: state.changes + 1 })),
}));

/**
 * The part of the state a card reads; `selector` must return a primitive or a stable value. Unlike
 * zustand's own hook, a server render (the cards' tests) sees the current state, not the initial one.
 */
export function useToolCards<T>(selector: (state: ToolCardState) => T): T {
  const read = () => selector(toolCards.getState());
  return useSyncExternalStore(toolCards.subscribe, read, read);
}
