// The window's layout: whether the sidebar and the right panel are shown and how wide they are
// (remembered in this browser/app profile), the narrow layout below 1100 px, and the shortcuts help.
import { create } from 'zustand';

/** Below this width the right panel is a drawer over the conversation instead of a third column. */
export const NARROW_QUERY = '(width < 1100px)';
const STORAGE_KEY = 'folio.layout';

export const SIDEBAR_WIDTH = { min: 200, max: 420 } as const;
export const PANEL_WIDTH = { min: 260, max: 720 } as const;

interface Remembered {
  sidebarOpen: boolean;
  panelOpen: boolean;
  /** null: the stylesheet's default (the results tab widens the panel by itself). */
  sidebarWidth: number | null;
  panelWidth: number | null;
}

interface LayoutState extends Remembered {
  narrow: boolean;
  /** In the narrow layout the panel is a drawer, closed until asked for (not remembered). */
  drawerOpen: boolean;
  shortcutsOpen: boolean;
  /** Bumped by the new-task shortcut; the New-task menu opens when it changes. */
  newTaskMenuRequest: number;
  requestNewTaskMenu: () => void;
  toggleSidebar: () => void;
  /** Shows or hides the right panel: the third column, or the drawer in the narrow layout. */
  togglePanel: () => void;
  /** Closes the narrow layout's drawer (Escape, a click outside it). */
  closeDrawer: () => void;
  setSidebarWidth: (px: number) => void;
  setPanelWidth: (px: number) => void;
  setNarrow: (narrow: boolean) => void;
  setShortcutsOpen: (open: boolean) => void;
}

const defaults: Remembered = { sidebarOpen: true, panelOpen: true, sidebarWidth: null, panelWidth: null };

export function clampWidth(px: number, range: { min: number; max: number }): number {
  return Math.round(Math.min(range.max, Math.max(range.min, px)));
}

function readRemembered(): Remembered {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return defaults;
    const value = JSON.parse(raw) as Partial<Remembered>;
    const width = (v: unknown, range: { min: number; max: number }) => (typeof v === 'number' && Number.isFinite(v) ? clampWidth(v, range) : null);
    return {
      sidebarOpen: value.sidebarOpen !== false,
      panelOpen: value.panelOpen !== false,
      sidebarWidth: width(value.sidebarWidth, SIDEBAR_WIDTH),
      panelWidth: width(value.panelWidth, PANEL_WIDTH),
    };
  } catch {
    // Storage refused or a value from another version: the default layout.
    return defaults;
  }
}

function remember(state: Remembered): void {
  try {
    const { sidebarOpen, panelOpen, sidebarWidth, panelWidth } = state;
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify({ sidebarOpen, panelOpen, sidebarWidth, panelWidth }));
  } catch {
    // Private mode or a full storage: the layout still works, it is just not remembered.
  }
}

function isNarrow(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
}

export const useLayout = create<LayoutState>((set, get) => {
  const update = (patch: Partial<LayoutState>) => {
    set(patch);
    remember(get());
  };
  return {
    ...readRemembered(),
    narrow: isNarrow(),
    drawerOpen: false,
    shortcutsOpen: false,
    newTaskMenuRequest: 0,
    requestNewTaskMenu: () => set({ newTaskMenuRequest: get().newTaskMenuRequest + 1 }),
    toggleSidebar: () => update({ sidebarOpen: !get().sidebarOpen }),
    togglePanel: () => {
      // The layout on screen now: the media query's change event comes only with the next frame, and
      // a toggle pressed before it (the window just narrowed) would close the wide panel for good.
      const narrow = isNarrow();
      if (narrow !== get().narrow) set({ narrow, drawerOpen: false });
      if (narrow) set({ drawerOpen: !get().drawerOpen });
      else update({ panelOpen: !get().panelOpen });
    },
    closeDrawer: () => set({ drawerOpen: false }),
    setSidebarWidth: (px) => update({ sidebarWidth: clampWidth(px, SIDEBAR_WIDTH) }),
    setPanelWidth: (px) => update({ panelWidth: clampWidth(px, PANEL_WIDTH) }),
    // A change already taken in (by a toggle) leaves the drawer as it is.
    setNarrow: (narrow) => {
      if (narrow !== get().narrow) set({ narrow, drawerOpen: false });
    },
    setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
  };
});

/** Whether the right panel is on screen now. */
export function panelShown(state: Pick<LayoutState, 'narrow' | 'drawerOpen' | 'panelOpen'>): boolean {
  return state.narrow ? state.drawerOpen : state.panelOpen;
}
