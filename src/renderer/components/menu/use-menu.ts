// One behaviour for every popup menu opened from a button (the new-task menu, the chat header's MCP
// and grants menus): the arrows, Home and End move between its items, Escape closes it and gives the
// focus back to its button, a press outside or focus moving elsewhere closes it.
import { type FocusEvent, type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { isMoveKey, nextIndex, textFieldOwns, type MoveKey } from './menu-keys';

/** What counts as an item the arrows reach: the menu's enabled controls, in document order. */
const ITEMS = '[role^="menuitem"]:not([aria-disabled="true"]), button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled)';

function itemsIn(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(menu?.querySelectorAll<HTMLElement>(ITEMS) ?? []);
}

export interface MenuOptions {
  /** A counter outside code increments to open the menu (a keyboard shortcut); focus goes to its first item. */
  openRequest?: number;
}

export function useMenu({ openRequest = 0 }: MenuOptions = {}) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  // Where focus goes once the menu is drawn: its first item, or its last when opened with ArrowUp.
  const entry = useRef<MoveKey>('ArrowDown');

  const focusItem = (key: MoveKey) => {
    const list = itemsIn(menuRef.current);
    const at = list.indexOf(document.activeElement as HTMLElement);
    list[nextIndex(key, at, list.length)]?.focus();
  };

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (openRequest > 0) {
      entry.current = 'ArrowDown';
      setOpen(true);
    }
  }, [openRequest]);

  // A menu takes the focus to its first item when it opens (and again on a new request while open).
  useEffect(() => {
    if (!open) return;
    const list = itemsIn(menuRef.current);
    list[entry.current === 'ArrowUp' ? list.length - 1 : 0]?.focus();
  }, [open, openRequest]);

  useEffect(() => {
    if (!open) return;
    const onPress = (e: globalThis.MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) close(false);
    };
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') close(true);
    };
    window.addEventListener('mousedown', onPress);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('mousedown', onPress);
      window.removeEventListener('keydown', onKey);
    };
  }, [open, close]);

  const buttonProps = {
    ref: buttonRef,
    'aria-expanded': open,
    onClick: () => {
      entry.current = 'ArrowDown';
      setOpen((v) => !v);
    },
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
      e.preventDefault();
      // Items that arrived after the menu opened (a list loading) are reached from the button too.
      if (open) focusItem(e.key);
      else {
        entry.current = e.key;
        setOpen(true);
      }
    },
  };

  const menuProps = {
    ref: menuRef,
    onKeyDown: (e: KeyboardEvent) => {
      if (!isMoveKey(e.key) || textFieldOwns(e.key, e.target as HTMLInputElement)) return;
      e.preventDefault();
      focusItem(e.key);
    },
  };

  const rootProps = {
    ref: rootRef,
    // Tabbing away closes the menu; a click on the menu's own text (focus going nowhere) does not.
    onBlur: (e: FocusEvent) => {
      const to = e.relatedTarget as Node | null;
      if (to && !rootRef.current?.contains(to)) setOpen(false);
    },
  };

  return { open, close: () => close(false), rootProps, buttonProps, menuProps };
}
