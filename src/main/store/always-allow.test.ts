import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './index';
import { alwaysAllowedTools, isAlwaysAllowed, setAlwaysAllowed } from './always-allow';
import type { StorePort } from './port';
import { sqlitePort } from './sqlite-port';
import { makeTempDir } from './test-helpers';

let cleanup: (() => void) | undefined;
let store: Store | undefined;
afterEach(() => {
  store?.close();
  cleanup?.();
});

function open(): StorePort {
  const tmp = makeTempDir();
  cleanup = tmp.cleanup;
  store = openStore(tmp.dbPath);
  return sqlitePort(store);
}

describe('always_allow settings key', () => {
  it('keeps full tool names sorted without repeats, and removes the key when empty', async () => {
    const { settings } = open();
    await setAlwaysAllowed(settings, 'write', true);
    await setAlwaysAllowed(settings, 'mcp__files__read_file', true);
    await setAlwaysAllowed(settings, 'write', true);
    expect(await settings.get('always_allow')).toEqual(['mcp__files__read_file', 'write']);
    expect(await isAlwaysAllowed(settings, 'write')).toBe(true);
    expect(await isAlwaysAllowed(settings, 'edit')).toBe(false);
    await setAlwaysAllowed(settings, 'write', false);
    await setAlwaysAllowed(settings, 'mcp__files__read_file', false);
    expect(await settings.get('always_allow')).toBeUndefined();
  });

  it('reads a damaged value as nothing allowed', async () => {
    const { settings } = open();
    await settings.set('always_allow', { write: true });
    expect(await alwaysAllowedTools(settings)).toEqual([]);
    await settings.set('always_allow', ['write', 7]);
    expect(await isAlwaysAllowed(settings, 'write')).toBe(false);
  });
});
