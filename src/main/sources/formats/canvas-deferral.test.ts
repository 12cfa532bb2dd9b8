import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const skip = existsSync('/proc/self/maps') ? null : 'no /proc/self/maps to see which native modules are loaded';

describe.skipIf(skip !== null)('importing pdfjs without @napi-rs/canvas', () => {
  it('loads no Skia until something draws, and then the real package', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'canvas-deferral.fixture.ts')], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(seen.version).toMatch(/^\d+\./u);
    // pdfjs imported (it builds a DOMMatrix while its module is evaluated), Skia still absent
    expect(seen.afterImport).toBe(false);
    expect(seen.matrix).toEqual([2, 5]);
    expect(seen.afterMatrix).toBe(false);
    // drawing asks for a Path2D: the real, native one
    expect(seen.pathHasAddPath).toBe(true);
    expect(seen.afterPath).toBe(true);
    // pdfjs printed no "Cannot polyfill" warnings
    expect(run.stderr + run.stdout).not.toMatch(/polyfill|Cannot load/u);
  });
});
