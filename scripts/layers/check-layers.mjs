// `npm run lint`'s layer check: dependency-cruiser resolves every import (static, dynamic, type-only)
// to a file and judges it against scripts/layers/layers.mjs; then every allowance of the table must
// be used by at least one production import. Exits 1 and says why on any finding.
import { cruise } from 'dependency-cruiser';
import { pathToFileURL } from 'node:url';
import { mainLayers, layerRules, TEST_FILES } from './layers.mjs';

/**
 * The findings for the tree under `baseDir` (its `src`): rule violations and unused allowances, each
 * a line a person can act on. `layers` defaults to the real table.
 */
export async function checkLayers({ baseDir = process.cwd(), layers = mainLayers } = {}) {
  const cwd = process.cwd();
  process.chdir(baseDir);
  let result;
  try {
    ({ output: result } = await cruise(
      ['src'],
      {
        validate: true,
        ruleSet: { forbidden: layerRules(layers) },
        tsPreCompilationDeps: true,
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '^src/.*\\.d\\.ts$' },
        moduleSystems: ['es6', 'cjs'],
      },
      { extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.cjs', '.json'] },
    ));
  } finally {
    process.chdir(cwd);
  }
  const findings = result.summary.violations.map((v) => {
    const rule = layerRules(layers).find((r) => r.name === v.rule.name);
    const what = v.cycle ? [v.from, ...v.cycle.map((c) => (typeof c === 'string' ? c : c.name))].join(' → ') : `${v.from} → ${v.to}`;
    return `${v.rule.name}: ${what}${rule?.comment ? `\n    ${rule.comment}` : ''}`;
  });
  const used = usedEdges(result.modules);
  for (const [folder, allowed] of Object.entries(layers)) {
    for (const other of allowed) {
      if (!used.has(`${folder}→${other}`)) findings.push(`layer:unused-allowance: src/main/${folder} may import ${other}, but no production file does\n    Remove "${other}" from ${folder}'s line in scripts/layers/layers.mjs.`);
    }
  }
  return findings;
}

/** Folder-to-folder imports of production files inside src/main. */
function usedEdges(modules) {
  const test = new RegExp(TEST_FILES);
  const folderOf = (path) => /^src\/main\/([^/]+)\//.exec(path)?.[1];
  const used = new Set();
  for (const m of modules) {
    const from = folderOf(m.source);
    if (!from || test.test(m.source)) continue;
    for (const d of m.dependencies) {
      const to = folderOf(d.resolved);
      if (to && to !== from) used.add(`${from}→${to}`);
    }
  }
  return used;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const findings = await checkLayers();
  if (findings.length > 0) {
    console.error(`Layer check: ${findings.length} finding(s)\n${findings.map((f) => `  ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('Layer check: no findings.');
}
