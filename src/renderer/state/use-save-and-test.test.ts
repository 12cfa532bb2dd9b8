// A service section's Test: where main can try the form's values unsaved, what fails its test is never
// saved over what works; elsewhere the settings are saved first and a failed save is not tested.
import { describe, expect, it } from 'vitest';
import type { FolioClient } from '../../shared/contract';
import { testThenSave } from './use-save-and-test';

interface Report {
  ok: boolean;
}

/** Runs Test with a test that reports `ok` and a save that answers `saves`; returns what happened, in order. */
async function runTest(ok: boolean, { savesIf, saves = true }: { savesIf?: (report: Report) => boolean; saves?: boolean } = {}) {
  const steps: string[] = [];
  const client = {} as FolioClient;
  const outcome = await testThenSave<Report>(
    {
      test: async (given) => {
        expect(given).toBe(client);
        steps.push('test');
        return { ok };
      },
      ...(savesIf ? { savesIf } : {}),
    },
    client,
    async () => {
      steps.push('save');
      return saves;
    },
    () => steps.push('testing'),
  );
  return { steps, outcome };
}

const passed = (report: Report) => report.ok;

describe('Test on a form that can be tried unsaved (savesIf)', () => {
  it('saves the values once their test passes, after the test', async () => {
    expect(await runTest(true, { savesIf: passed })).toEqual({ steps: ['testing', 'test', 'save'], outcome: { report: { ok: true } } });
  });

  it('does not save values whose test fails, and reports the failure', async () => {
    expect(await runTest(false, { savesIf: passed })).toEqual({ steps: ['testing', 'test'], outcome: { report: { ok: false } } });
  });
});

describe('Test on a form main tests only as saved', () => {
  it('saves first, then tests what was saved', async () => {
    expect((await runTest(false)).steps).toEqual(['save', 'testing', 'test']);
  });

  it('does not test when the save failed', async () => {
    expect(await runTest(true, { saves: false })).toEqual({ steps: ['save'], outcome: null });
  });
});
