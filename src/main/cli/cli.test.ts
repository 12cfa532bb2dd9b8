// The `folio` command line, run as a person would (a child process on the TypeScript entry).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findResourcesDir } from '../config/app-paths';

const root = findResourcesDir();
function folio(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
}

describe('folio CLI', () => {
  it('render writes a deck and a document, versioning instead of overwriting', () => {
    const out = mkdtempSync(join(tmpdir(), 'folio-cli-'));
    const deck = folio(['render', join(root, 'samples/deck-zh-talk/deck.json'), '-o', out]);
    expect(deck.status, deck.stderr).toBe(0);
    expect(deck.stdout).toMatch(/Wrote .*deck\.pptx \(12 slides\)/);
    // LibreOffice is installed wherever the suite runs (CI too): the report was read back from the slides.
    expect(deck.stdout).toContain('Quality report, verified against the rendered slides:');
    const again = folio(['render', join(root, 'samples/deck-zh-talk/deck.json'), '-o', out], { FOLIO_SOFFICE: join(out, 'no-such-soffice') });
    expect(again.stdout).toMatch(/deck-v2\.pptx/);
    expect(again.stdout).toContain('Quality report, estimated (LibreOffice not installed):');
    const doc = folio(['render', join(root, 'samples/proposal-nsfc'), '-o', out]);
    expect(doc.status, doc.stderr).toBe(0);
    expect(doc.stdout).toMatch(/\.docx: (about )?\d+ pages/);
    expect(existsSync(join(out, 'deck.pptx'))).toBe(true);
  }, 180_000);

  it('render reports a bad spec with the field and a non-zero exit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-cli-'));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ title: 'x', slides: [{ layout: 'nope' }] }));
    const result = folio(['render', join(dir, 'bad.json')]);
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/slides\[0\]\.layout/);
  });

  it('tasks lists nothing on a fresh data folder; unknown commands fail with usage', () => {
    const data = mkdtempSync(join(tmpdir(), 'folio-cli-data-'));
    const tasks = folio(['tasks'], { FOLIO_DATA_DIR: data });
    expect(tasks.status, tasks.stderr).toBe(0);
    expect(tasks.stdout).toContain('No tasks.');
    const bad = folio(['frobnicate']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/Unknown command/);
  });

  it('probe of an unknown profile exits 3 and names the known ones', () => {
    const data = mkdtempSync(join(tmpdir(), 'folio-cli-data-'));
    const probe = folio(['probe', 'nope.nothing'], { FOLIO_DATA_DIR: data });
    expect(probe.status).toBe(3);
    expect(probe.stderr).toMatch(/deepseek\.flash/);
  });
});
