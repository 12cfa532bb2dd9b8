// A menu's keyboard moves: arrows wrap, Home and End jump, nothing to move to is -1, and a text
// field inside a menu keeps its caret keys.
import { describe, expect, it } from 'vitest';
import { isMoveKey, nextIndex, textFieldOwns } from './menu-keys';

describe('nextIndex', () => {
  it('moves down and up, wrapping at both ends', () => {
    expect(nextIndex('ArrowDown', 0, 3)).toBe(1);
    expect(nextIndex('ArrowDown', 2, 3)).toBe(0);
    expect(nextIndex('ArrowUp', 1, 3)).toBe(0);
    expect(nextIndex('ArrowUp', 0, 3)).toBe(2);
  });

  it('enters the menu at the first item going down and the last going up when no item has focus', () => {
    expect(nextIndex('ArrowDown', -1, 4)).toBe(0);
    expect(nextIndex('ArrowUp', -1, 4)).toBe(3);
  });

  it('jumps to the ends with Home and End', () => {
    expect(nextIndex('Home', 2, 4)).toBe(0);
    expect(nextIndex('End', 0, 4)).toBe(3);
  });

  it('has nowhere to go in an empty menu', () => {
    for (const key of ['ArrowDown', 'ArrowUp', 'Home', 'End'] as const) expect(nextIndex(key, -1, 0)).toBe(-1);
  });
});

describe('isMoveKey', () => {
  it('knows the four moving keys and nothing else', () => {
    expect(['ArrowDown', 'ArrowUp', 'Home', 'End'].every(isMoveKey)).toBe(true);
    expect(['Enter', 'Escape', 'Tab', ' ', 'ArrowLeft'].some(isMoveKey)).toBe(false);
  });
});

describe('textFieldOwns', () => {
  it('leaves the caret keys to a text field', () => {
    expect(textFieldOwns('Home', { tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(textFieldOwns('ArrowUp', { tagName: 'TEXTAREA' })).toBe(true);
    expect(textFieldOwns('End', { tagName: 'DIV', isContentEditable: true })).toBe(true);
  });

  it('moves on from a checkbox or a button', () => {
    expect(textFieldOwns('ArrowDown', { tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(textFieldOwns('ArrowDown', { tagName: 'BUTTON', type: 'button' })).toBe(false);
  });

  it('lets other keys through to the menu', () => {
    expect(textFieldOwns('Escape', { tagName: 'INPUT', type: 'text' })).toBe(false);
  });
});
