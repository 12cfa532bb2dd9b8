// Folio's layering, checked on resolved paths by dependency-cruiser (scripts/layers/check-layers.mjs,
// run by `npm run lint`), in the spirit of VS Code's layer rules:
//   src/shared   pure TypeScript: no Node, no Electron, no main/renderer/preload code
//   src/renderer no Node, no Electron, no main or preload code (talks to main only through the contract)
//   electron     only in the composition root (src/main/index.ts, src/main/electron/) and the preload
//   src/main     each folder imports only the folders its line below allows (besides itself and src/shared)
// An import is judged by the file it resolves to, so `../../main/service/x` from src/main/store is
// the same upward import as `../service/x`. Tests may use higher layers to build fixtures, so the
// rules apply to production files only. An allowance no import uses is an error too: the table
// says what the code does, not what it once did.

/** Inside src/main: each folder and the folders it may import. src/main/index.ts is the root and imports anything. */
export const mainLayers = {
  config: [],
  workers: [],
  sandbox: ['config'],
  workspace: [],
  net: [],
  store: ['workers'],
  models: ['config'],
  artifacts: ['workspace'],
  skills: ['config'],
  llm: ['models', 'net'],
  sources: ['workers', 'workspace'],
  renderers: ['artifacts', 'config', 'sandbox', 'sources', 'workspace'],
  library: ['net', 'sources', 'store', 'workspace'],
  tools: ['artifacts', 'llm', 'models', 'net', 'renderers', 'sandbox', 'skills', 'sources', 'workers', 'workspace'],
  mcp: ['models', 'net', 'tools'],
  agent: ['llm', 'sources', 'store', 'tools', 'workspace'],
  // Skills that run as sub-agents: the agent loop nested inside a tool call.
  subagents: ['agent', 'llm', 'models', 'skills', 'tools'],
  runs: ['agent', 'store'],
  // Store-backed settings the runs read (web search, embeddings).
  settings: ['library', 'models', 'net', 'store', 'tools'],
  // Turns a task and its settings into everything a run needs; the run manager's driver.
  assembly: ['agent', 'library', 'llm', 'mcp', 'models', 'net', 'runs', 'settings', 'skills', 'sources', 'store', 'subagents', 'tools', 'workspace'],
  tenancy: ['config', 'models', 'net', 'quotas', 'store'],
  // Prometheus metrics of the team service, fed by the CLI's composition.
  metrics: [],
  quotas: ['store'],
  cluster: ['config', 'runs', 'store'],
  service: ['assembly', 'settings', 'quotas', 'agent', 'config', 'library', 'llm', 'mcp', 'models', 'net', 'renderers', 'runs', 'sandbox', 'skills', 'sources', 'store', 'tools', 'workspace'],
  transport: ['service', 'tenancy'],
  // The CLI composes the core like the Electron root, and restores backups (`folio db restore`).
  cli: ['cluster', 'config', 'llm', 'metrics', 'models', 'net', 'quotas', 'renderers', 'sandbox', 'service', 'store', 'tenancy', 'transport', 'workspace'],
  electron: ['service', 'transport'],
};

/** Files the layer rules do not judge: tests and their helpers. */
export const TEST_FILES = '(\\.test\\.tsx?|\\.test-support\\.ts|test-kit\\.ts|\\.fixture\\.ts|/testing\\.ts)$';

const NATIVE_DEPS = ['better-sqlite3', 'openai', 'pptxgenjs', 'docx', 'busboy', 'tinyglobby', 'mammoth'];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** dependency-cruiser's rules for a layer table (the real one, or a test's). */
export function layerRules(layers = mainLayers) {
  const folders = Object.keys(layers);
  const forbidden = Object.entries(layers).flatMap(([folder, allowed]) => {
    const others = folders.filter((f) => f !== folder && !allowed.includes(f));
    if (others.length === 0) return [];
    return [
      {
        name: `layer:${folder}`,
        comment: `src/main/${folder} may import only ${allowed.length > 0 ? allowed.join(', ') : 'src/shared'} (the layer table in scripts/layers/layers.mjs).`,
        severity: 'error',
        from: { path: `^src/main/${escape(folder)}/`, pathNot: TEST_FILES },
        to: { path: `^src/main/(${others.map(escape).join('|')})/` },
      },
    ];
  });
  return [
    ...forbidden,
    {
      name: 'layer:unknown-folder',
      comment: 'Every folder of src/main has a line in the layer table.',
      severity: 'error',
      from: { path: `^src/main/(?!(${folders.map(escape).join('|')})/)[^/]+/`, pathNot: TEST_FILES },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'Modules do not import each other in a circle: one of them has the wrong job.',
      severity: 'error',
      from: { pathNot: TEST_FILES },
      to: { circular: true },
    },
    {
      name: 'shared-is-pure',
      comment: 'src/shared is pure TypeScript: no Node, no Electron, nothing from main, renderer or preload.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: `^src/(main|renderer|preload)/|(^|/)node_modules/(electron|react|react-dom|${NATIVE_DEPS.map(escape).join('|')})/|^(electron|react|react-dom)$` },
    },
    {
      name: 'shared-no-node',
      comment: 'src/shared runs in the renderer too: no Node built-ins.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-through-contract',
      comment: 'The renderer talks to main only through the contract in src/shared.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { path: `^src/(main|preload)/|(^|/)node_modules/(electron|${NATIVE_DEPS.map(escape).join('|')})/|^electron$` },
    },
    {
      name: 'renderer-no-node',
      comment: 'The renderer has no Node built-ins.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'electron-only-in-the-root',
      comment: 'Only the Electron composition root (src/main/index.ts, src/main/electron/) and the preload import electron.',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(main/index\\.ts|main/electron/|preload/)` },
      to: { path: '(^|/)node_modules/electron/|^electron$' },
    },
  ];
}
