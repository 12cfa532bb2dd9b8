// Which slides of a deck a person has selected in its preview, to ask for a change to just those.
// Selection is by spec slide (its id): a continuation slide selects the slide it continues.
// Click with Ctrl/⌘ toggles a slide, Shift selects the range from the last one clicked; a plain
// click is left to the caller (it enlarges the slide).
import { useState } from 'react';
import type { DeckPlan } from '../../../shared/specs/deck-plan';

export interface SelectableSlide {
  id: string;
  /** 1-based number of its first slide in the file. */
  number: number;
}

/** One entry per spec slide that has an id, in file order. */
export function selectableSlides(plan: DeckPlan | null): SelectableSlide[] {
  const out: SelectableSlide[] = [];
  const seen = new Set<string>();
  plan?.slides.forEach((s, n) => {
    if (s.slide_id === undefined || seen.has(s.slide_id)) return;
    seen.add(s.slide_id);
    out.push({ id: s.slide_id, number: n + 1 });
  });
  return out;
}

export type SelectMode = 'toggle' | 'range';

/** The selection after a click on `id`; kept in file order. */
export function nextSelection(current: readonly string[], order: readonly string[], id: string, mode: SelectMode, anchor: string | null): string[] {
  const set = new Set(current);
  if (mode === 'range' && anchor !== null && order.includes(anchor)) {
    const [a, b] = [order.indexOf(anchor), order.indexOf(id)].sort((x, y) => x - y);
    for (const other of order.slice(a, (b ?? a) + 1)) set.add(other);
  } else if (set.has(id)) set.delete(id);
  else set.add(id);
  return order.filter((o) => set.has(o));
}

export interface SlideSelection {
  selected: SelectableSlide[];
  isSelected: (id: string) => boolean;
  toggle: (id: string) => void;
  /** Handles a click with Ctrl/⌘/Shift held and returns true; returns false for a plain click. */
  click: (id: string, e: { ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }) => boolean;
  clear: () => void;
}

/** Selection state for one deck file (`key`): choosing another file starts empty. */
export function useSlideSelection(plan: DeckPlan | null, key: string): SlideSelection {
  const [state, setState] = useState<{ key: string; ids: string[]; anchor: string | null }>({ key, ids: [], anchor: null });
  const current = state.key === key ? state : { key, ids: [], anchor: null };
  const slides = selectableSlides(plan);
  const order = slides.map((s) => s.id);
  const apply = (id: string, mode: SelectMode) =>
    setState((s) => {
      const base = s.key === key ? s : { key, ids: [], anchor: null };
      return { key, ids: nextSelection(base.ids, order, id, mode, base.anchor), anchor: id };
    });
  return {
    selected: slides.filter((s) => current.ids.includes(s.id)),
    isSelected: (id) => current.ids.includes(id),
    toggle: (id) => apply(id, 'toggle'),
    click: (id, e) => {
      if (e.shiftKey) apply(id, 'range');
      else if (e.ctrlKey || e.metaKey) apply(id, 'toggle');
      else return false;
      return true;
    },
    clear: () => setState({ key, ids: [], anchor: null }),
  };
}
