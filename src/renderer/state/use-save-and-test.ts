// Settings sections for an outside service (web search, embeddings) save the same way: the settings
// first (so the key's variable is the service's), then the key into the key store (never read back),
// then Settings reloaded. Test either saves first and reports what main's test call answered, or,
// where main can test the form's values unsaved (`savesIf`), tests them and saves only what passed.
import { useState } from 'react';
import type { FolioClient } from '../../shared/contract';
import { getApi } from './api';
import { useApp } from './app-store';
import { toErrorInfo, type ErrorInfo } from './notices';

export type TestState<R> = { status: 'running' } | { status: 'done'; report: R };

export interface SaveAndTestOptions<R> {
  /** Writes the section's settings. */
  update: (client: FolioClient) => Promise<unknown>;
  /** The variable a typed key is stored under; null when the choice takes no key. */
  keyEnv: string | null;
  key: string;
  clearKey: () => void;
  test: (client: FolioClient) => Promise<R>;
  /** Set when `test` tries the form's values without saving them: they are saved only when this says the test passed. */
  savesIf?: (report: R) => boolean;
}

export function useSaveAndTest<R>(options: SaveAndTestOptions<R>) {
  const loadSettings = useApp((s) => s.loadSettings);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [test, setTest] = useState<TestState<R> | null>(null);

  const save = async (): Promise<boolean> => {
    setError(null);
    setSaved(false);
    try {
      const client = getApi().client;
      await options.update(client);
      // The variable must be the service's before a key can be stored under it.
      if (options.keyEnv && options.key.trim()) {
        await client.setApiKey({ env: options.keyEnv, key: options.key.trim() });
        options.clearKey();
      }
      await loadSettings();
      setSaved(true);
      return true;
    } catch (err) {
      setError(toErrorInfo(err));
      return false;
    }
  };

  const runTest = async () => {
    try {
      const outcome = await testThenSave(options, getApi().client, save, () => {
        setError(null);
        setTest({ status: 'running' });
      });
      if (outcome) setTest({ status: 'done', report: outcome.report });
    } catch (err) {
      setTest(null);
      setError(toErrorInfo(err));
    }
  };

  /** After an edit: the form no longer shows what was saved or tested. */
  const edited = () => {
    setSaved(false);
    setTest(null);
  };

  /** A field's setter that also marks the form edited, said once: `onValue={editing(setUrl)}`. */
  const editing = <T>(set: (value: T) => void) => markingEdited(set, edited);

  return { saved, error, test, save, runTest, edited, editing };
}

/**
 * Test's order: without `savesIf`, save (a failed save stops there: null), then test; with it, test the
 * form's values and save only when `savesIf` passes the report. `testing` is called as the test starts.
 */
export async function testThenSave<R>(
  options: Pick<SaveAndTestOptions<R>, 'test' | 'savesIf'>,
  client: FolioClient,
  save: () => Promise<boolean>,
  testing: () => void,
): Promise<{ report: R } | null> {
  if (!options.savesIf && !(await save())) return null;
  testing();
  const report = await options.test(client);
  if (options.savesIf?.(report)) await save();
  return { report };
}

/** `set`, and then `edited`: a form field's change handler. */
export function markingEdited<T>(set: (value: T) => void, edited: () => void): (value: T) => void {
  return (value) => {
    set(value);
    edited();
  };
}
