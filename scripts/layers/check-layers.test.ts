// The layer check fails on what a regex on import text let through: an upward import that climbs to
// src/ and back down, a cycle, and an allowance no import uses. Each is planted in a small tree.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers } from './check-layers.mjs';

const trees: string[] = [];
afterEach(() => {
  for (const dir of trees.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const base = mkdtempSync(join(tmpdir(), 'folio-layers-'));
  trees.push(base);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  return base;
}

describe('checkLayers', () => {
  it('passes a tree that follows its table', async () => {
    const baseDir = tree({
      'src/main/low/a.ts': 'export const a = 1;\n',
      'src/main/high/b.ts': "import { a } from '../low/a';\nexport const b = a;\n",
    });
    expect(await checkLayers({ baseDir, layers: { low: [], high: ['low'] } })).toEqual([]);
  });

  it('fails an upward import that climbs to src/ and back down', async () => {
    const baseDir = tree({
      'src/main/low/a.ts': "import { b } from '../../main/high/b';\nexport const a = b;\n",
      'src/main/high/b.ts': 'export const b = 1;\n',
    });
    const findings = await checkLayers({ baseDir, layers: { low: [], high: [] } });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatch(/^layer:low: src\/main\/low\/a\.ts → src\/main\/high\/b\.ts/);
  });

  it('fails a type-only upward import too', async () => {
    const baseDir = tree({
      'src/main/low/a.ts': "import type { B } from '../high/b';\nexport const a: B = 1;\n",
      'src/main/high/b.ts': 'export type B = number;\n',
    });
    expect(await checkLayers({ baseDir, layers: { low: [], high: [] } })).toEqual([expect.stringMatching(/^layer:low: /)]);
  });

  it('fails a cycle inside a folder', async () => {
    const baseDir = tree({
      'src/main/low/c.ts': "import { d } from './d';\nexport const c = () => d();\n",
      'src/main/low/d.ts': "import { c } from './c';\nexport const d = () => c;\n",
    });
    const findings = await checkLayers({ baseDir, layers: { low: [] } });
    expect(findings).toEqual([expect.stringMatching(/^no-circular: src\/main\/low\/([cd])\.ts → src\/main\/low\/[cd]\.ts → src\/main\/low\/\1\.ts\n/)]);
  });

  it('fails an allowance no production import uses (a test using it does not count)', async () => {
    const baseDir = tree({
      'src/main/low/a.ts': 'export const a = 1;\n',
      'src/main/extra/e.ts': 'export const e = 1;\n',
      'src/main/high/b.ts': "import { a } from '../low/a';\nexport const b = a;\n",
      'src/main/high/b.test.ts': "import { e } from '../extra/e';\nexport const t = e;\n",
    });
    const findings = await checkLayers({ baseDir, layers: { low: [], extra: [], high: ['low', 'extra'] } });
    expect(findings).toEqual([expect.stringMatching(/^layer:unused-allowance: src\/main\/high may import extra, but no production file does/)]);
  });

  it('fails a folder missing from the table, and Node or main code in src/shared', async () => {
    const baseDir = tree({
      'src/main/stray/s.ts': 'export const s = 1;\n',
      'src/shared/x.ts': "import { readFileSync } from 'node:fs';\nimport { s } from '../main/stray/s';\nexport const x = [readFileSync, s];\n",
    });
    const findings = await checkLayers({ baseDir, layers: {} });
    expect(findings.map((f) => f.split(':')[0]).sort()).toEqual(['shared-is-pure', 'shared-no-node']);
  });
});
