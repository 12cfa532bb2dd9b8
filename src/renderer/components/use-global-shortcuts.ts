import { useEffect } from 'react';
import { isMac, matchShortcut, type ShortcutAction } from '../lib/shortcuts';
import { useApp } from '../state/app-store';
import { NARROW_QUERY, useLayout } from '../state/layout-store';

/** Focuses the sidebar's task search, opening the sidebar first when it is collapsed. */
function focusSearch(): void {
  if (!useLayout.getState().sidebarOpen) useLayout.getState().toggleSidebar();
  // After the render that shows the sidebar.
  requestAnimationFrame(() => document.querySelector<HTMLInputElement>('[data-testid="task-search"]')?.focus());
}

function run(action: ShortcutAction): void {
  const layout = useLayout.getState();
  switch (action) {
    case 'newTask':
      if (!layout.sidebarOpen) layout.toggleSidebar();
      layout.requestNewTaskMenu();
      return;
    case 'search':
      focusSearch();
      return;
    case 'settings':
      useApp.getState().setView(useApp.getState().view === 'settings' ? 'chat' : 'settings');
      return;
    case 'toggleSidebar':
      layout.toggleSidebar();
      return;
    case 'togglePanel':
      layout.togglePanel();
      return;
    case 'shortcuts':
      layout.setShortcutsOpen(!layout.shortcutsOpen);
      return;
  }
}

/** The window-wide shortcuts (lib/shortcuts.ts) and the narrow layout's media query. */
export function useGlobalShortcuts(): void {
  useEffect(() => {
    const mac = isMac(navigator.platform);
    const onKey = (e: KeyboardEvent) => {
      const action = matchShortcut(e, mac);
      if (!action) return;
      e.preventDefault();
      run(action);
    };
    window.addEventListener('keydown', onKey);
    const query = window.matchMedia(NARROW_QUERY);
    const onChange = () => useLayout.getState().setNarrow(query.matches);
    query.addEventListener('change', onChange);
    onChange();
    return () => {
      window.removeEventListener('keydown', onKey);
      query.removeEventListener('change', onChange);
    };
  }, []);
}
