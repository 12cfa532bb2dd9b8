// The app's global keyboard shortcuts, as data: the handler and the shortcuts help read this one
// table. Ctrl on Windows/Linux, ⌘ on macOS. None is one a browser keeps for itself (Ctrl+N, Ctrl+T).
export type ShortcutAction = 'newTask' | 'search' | 'settings' | 'toggleSidebar' | 'togglePanel' | 'shortcuts';

export interface Shortcut {
  action: ShortcutAction;
  key: string;
  shift?: boolean;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'newTask', key: 'o', shift: true },
  { action: 'search', key: 'k' },
  { action: 'settings', key: ',' },
  { action: 'toggleSidebar', key: 'b' },
  { action: 'togglePanel', key: 'b', shift: true },
  { action: 'shortcuts', key: '/' },
];

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export function isMac(platform: string | undefined): boolean {
  return /mac|iphone|ipad/iu.test(platform ?? '');
}

/** The action a key press asks for, if any: the platform's modifier, Shift as listed, never Alt. */
export function matchShortcut(press: KeyPress, mac: boolean): ShortcutAction | null {
  const modifier = mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  if (!modifier || press.altKey) return null;
  const key = press.key.toLowerCase();
  const found = SHORTCUTS.find((s) => s.key === key && Boolean(s.shift) === press.shiftKey);
  return found?.action ?? null;
}

/** How a shortcut is written for the person: "Ctrl+Shift+O" or "⌘⇧O". */
export function shortcutLabel(shortcut: Shortcut, mac: boolean): string {
  const key = shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key;
  if (mac) return `⌘${shortcut.shift ? '⇧' : ''}${key}`;
  return `Ctrl+${shortcut.shift ? 'Shift+' : ''}${key}`;
}
