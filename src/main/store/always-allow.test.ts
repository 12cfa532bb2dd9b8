import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './index';
import { alwaysAllowedTools, isAlwaysAllowed, setAlwaysAllowed } from './always-allow';
import { makeTempDir } from './test-helpers';

let cleanup: (() => void) | undefined;
let store: Store | undefined;
afterEach(() => {
  store?.close();
  cleanup?.();
});

function open(): Store {
  const tmp = makeTempDir();
  cleanup = tmp.cleanup;
  store = openStore(tmp.dbPath);
  return store;
}

describe('always_allow settings key', () => {
  it('keeps full tool names sorted without repeats, and removes the key when empty', () => {
    const { settings } = open();
    setAlwaysAllowed(settings, 'write', true);
    setAlwaysAllowed(settings, 'mcp__files__read_file', true);
    setAlwaysAllowed(settings, 'write', true);
    expect(settings.get('always_allow')).toEqual(['mcp__files__read_file', 'write']);
    expect(isAlwaysAllowed(settings, 'write')).toBe(true);
    expect(isAlwaysAllowed(settings, 'edit')).toBe(false);
    setAlwaysAllowed(settings, 'write', false);
    setAlwaysAllowed(settings, 'mcp__files__read_file', false);
    expect(settings.get('always_allow')).toBeUndefined();
  });

  it('reads a damaged value as nothing allowed', () => {
    const { settings } = open();
    settings.set('always_allow', { write: true });
    expect(alwaysAllowedTools(settings)).toEqual([]);
    settings.set('always_allow', ['write', 7]);
    expect(isAlwaysAllowed(settings, 'write')).toBe(false);
  });
});
