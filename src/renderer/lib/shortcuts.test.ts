import { describe, expect, it } from 'vitest';
import { matchShortcut, SHORTCUTS, shortcutLabel } from './shortcuts';

const press = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('global shortcuts', () => {
  it('match with Ctrl on Windows/Linux and ⌘ on macOS, Shift as listed', () => {
    expect(matchShortcut(press('k', { ctrlKey: true }), false)).toBe('search');
    expect(matchShortcut(press('K', { metaKey: true }), true)).toBe('search');
    expect(matchShortcut(press('O', { ctrlKey: true, shiftKey: true }), false)).toBe('newTask');
    expect(matchShortcut(press('b', { ctrlKey: true }), false)).toBe('toggleSidebar');
    expect(matchShortcut(press('B', { ctrlKey: true, shiftKey: true }), false)).toBe('togglePanel');
    expect(matchShortcut(press(',', { ctrlKey: true }), false)).toBe('settings');
  });

  it('ignore plain keys, the other platform’s modifier and Alt (typing stays typing)', () => {
    expect(matchShortcut(press('k'), false)).toBeNull();
    expect(matchShortcut(press('k', { metaKey: true }), false)).toBeNull();
    expect(matchShortcut(press('k', { ctrlKey: true }), true)).toBeNull();
    expect(matchShortcut(press('k', { ctrlKey: true, altKey: true }), false)).toBeNull();
    expect(matchShortcut(press('o', { ctrlKey: true }), false)).toBeNull();
  });

  it('are each reachable by exactly one key combination, and labelled per platform', () => {
    const combos = SHORTCUTS.map((s) => `${s.shift ? 'S' : ''}${s.key}`);
    expect(new Set(combos).size).toBe(SHORTCUTS.length);
    const newTask = SHORTCUTS.find((s) => s.action === 'newTask')!;
    expect(shortcutLabel(newTask, false)).toBe('Ctrl+Shift+O');
    expect(shortcutLabel(newTask, true)).toBe('⌘⇧O');
  });
});
