// Lint is where Folio's layering is enforced (as errors), in the spirit of VS Code's layer rules:
//   src/shared   pure TypeScript: no Node, no DOM-only runtime, no Electron, no main/renderer code
//   src/renderer no Node, no Electron, no main code (talks to main only through the contract)
//   electron     only in the composition root (src/main/index.ts, src/main/electron/) and the preload
//   src/main     folders import only the folders below them (the table `mainLayers`)
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http', 'https',
  'net', 'os', 'path', 'process', 'readline', 'stream', 'tls', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib',
];
const nodePatterns = [{ group: ['node:*'], message: 'Node built-ins are not allowed in this layer.' }];
const nodePaths = nodeBuiltins.map((name) => ({ name, message: 'Node built-ins are not allowed in this layer.' }));
const electronPath = { name: 'electron', message: 'Only the Electron composition root (src/main/index.ts, src/main/electron/) may import electron.' };
const nativeDeps = ['better-sqlite3', 'openai', 'pptxgenjs', 'docx', 'busboy', 'tinyglobby', 'mammoth'].map((name) => ({
  name,
  message: 'Main-process libraries are not allowed in this layer.',
}));

// Inside src/main, after VS Code's layer table: each folder lists the folders it may import (besides
// itself and src/shared). Anything not listed is an error, so a new dependency upward is a decision
// made here, not an accident. src/main/index.ts is the composition root and imports anything.
// Tests may use higher layers to build fixtures (a renderer test renders through the tool), so the
// table applies to production files only.
const mainLayers = {
  config: [],
  workers: [],
  sandbox: ['config'],
  workspace: [],
  net: [],
  store: ['workers'],
  models: ['config'],
  artifacts: [],
  skills: ['config'],
  llm: ['models', 'net'],
  sources: ['workers', 'workspace'],
  renderers: ['artifacts', 'config', 'sandbox', 'sources', 'workspace'],
  // ---- projects and libraries (issue 14) ----
  library: ['config', 'sources', 'store', 'workers', 'workspace', 'llm', 'models', 'net'],
  tools: ['artifacts', 'config', 'llm', 'models', 'net', 'renderers', 'sandbox', 'skills', 'sources', 'workers', 'workspace'],
  mcp: ['models', 'net', 'tools'],
  agent: ['config', 'llm', 'sources', 'store', 'tools', 'workspace'],
  runs: ['agent', 'store'],
  // ---- team service (issue 16) ----
  tenancy: ['config', 'models', 'net', 'quotas', 'store'],
  quotas: ['config', 'store'],
  cluster: ['config', 'runs', 'store'],
  service: ['cluster', 'quotas', 'tenancy', 'agent', 'artifacts', 'config', 'library', 'llm', 'mcp', 'models', 'renderers', 'runs', 'sandbox', 'skills', 'sources', 'store', 'tools', 'workspace'],
  transport: ['service', 'tenancy', 'quotas'],
  // The CLI composes the core like the Electron root, and restores backups (`folio db restore`).
  cli: ['cluster', 'config', 'llm', 'models', 'net', 'quotas', 'renderers', 'sandbox', 'service', 'store', 'tenancy', 'transport', 'workspace'],
  electron: ['config', 'service', 'transport'],
};
const mainFolders = Object.keys(mainLayers);
const mainLayerConfigs = Object.entries(mainLayers).map(([folder, allowed]) => {
  const forbidden = mainFolders.filter((f) => f !== folder && !allowed.includes(f));
  return {
    files: [`src/main/${folder}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/*.test-support.ts', '**/*test-kit.ts', '**/*.fixture.ts', '**/testing.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: folder === 'electron' ? [] : [electronPath],
          patterns: [
            {
              regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`,
              message: `src/main/${folder} may import only ${allowed.length > 0 ? allowed.join(', ') : 'src/shared'} (the layer table in eslint.config.js).`,
            },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'workspace/**', 'test-results/**', 'playwright-report/**', 'test-artifacts/**', 'bin/**', 'scripts/**/*.mjs', '**/*.js', '!eslint.config.js'],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      'no-restricted-imports': ['error', { paths: [electronPath] }],
    },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  ...mainLayerConfigs,
  {
    files: ['src/main/index.ts', 'src/main/electron/**/*.test.ts', 'src/preload/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronPath, ...nodePaths, ...nativeDeps],
          patterns: [...nodePatterns, { group: ['**/main/**', '**/renderer/**', '**/preload/**', 'react', 'react-dom'], message: 'src/shared is pure TypeScript: it imports nothing from other layers.' }],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronPath, ...nodePaths, ...nativeDeps],
          patterns: [...nodePatterns, { group: ['**/main/**', '**/preload/**'], message: 'The renderer talks to main only through the contract in src/shared.' }],
        },
      ],
    },
  },
);
