// Which item a key moves to in an open menu, apart from the DOM so it can be tested on its own.

/** The keys that move between a menu's items. */
export type MoveKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End';

export function isMoveKey(key: string): key is MoveKey {
  return key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End';
}

/**
 * The index focus moves to from `at` (-1 when no item has focus) among `count` items; the arrows
 * wrap around, as in the WAI-ARIA menu pattern. -1 when there is nothing to move to.
 */
export function nextIndex(key: MoveKey, at: number, count: number): number {
  if (count === 0) return -1;
  switch (key) {
    case 'ArrowDown':
      return at < 0 ? 0 : (at + 1) % count;
    case 'ArrowUp':
      return at < 0 ? count - 1 : (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
  }
}

/** Keys a text field uses itself (the caret), which the menu leaves alone while one has focus. */
export function textFieldOwns(key: string, target: { tagName: string; type?: string; isContentEditable?: boolean }): boolean {
  const tag = target.tagName.toLowerCase();
  const typing = tag === 'textarea' || target.isContentEditable === true || (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type ?? 'text'));
  return typing && isMoveKey(key);
}
