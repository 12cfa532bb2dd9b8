import { type RefObject, useEffect, useState } from 'react';
import { useLayout } from '../state/layout-store';

/** The header's panel toggle: the drawer gives the focus back to it when it closes. */
export const PANEL_TOGGLE_ID = 'panel-toggle';
export const PANEL_ID = 'files-panel';

export function focusPanelToggle(): void {
  document.getElementById(PANEL_TOGGLE_ID)?.focus();
}

/** Something on top of the drawer that handles Escape and clicks itself: a dialog or an open menu. */
function overlayOpen(): boolean {
  return document.querySelector('[aria-modal="true"], [role="menu"]') !== null;
}

/**
 * The narrow layout's drawer behaves like one: it sits below the conversation's header, so the
 * header's toggle stays on screen and closes it; Escape closes it and gives the focus back to the
 * toggle; a click outside it closes it and leaves the focus where the person clicked. Opening it
 * takes the focus to its current tab. Returns the drawer's top edge in px (the header's bottom).
 */
export function usePanelDrawer(panelRef: RefObject<HTMLElement | null>, open: boolean): number | null {
  const [top, setTop] = useState<number | null>(null);

  useEffect(() => {
    if (!open) return;
    const header = document.querySelector<HTMLElement>('.chat-header');
    const place = () => setTop(header ? Math.round(header.getBoundingClientRect().bottom) : null);
    place();
    // The header wraps to two rows at some widths and languages.
    const observer = header && typeof ResizeObserver !== 'undefined' ? new ResizeObserver(place) : null;
    if (header) observer?.observe(header);
    window.addEventListener('resize', place);

    // The panel's own tabs, not the tabs inside what it previews.
    panelRef.current?.querySelector<HTMLElement>('.panel-tablist [role="tab"][aria-selected="true"]')?.focus();

    const close = () => useLayout.getState().closeDrawer();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || overlayOpen()) return;
      close();
      focusPanelToggle();
    };
    const onPress = (e: MouseEvent) => {
      const target = e.target as Element | null;
      if (!target || overlayOpen()) return;
      if (panelRef.current?.contains(target) || target.closest(`#${PANEL_TOGGLE_ID}`)) return;
      close();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mousedown', onPress);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', place);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mousedown', onPress);
    };
  }, [open, panelRef]);

  return top;
}
