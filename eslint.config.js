// Lint: typed rules for every file. Layering (which folder may import which, no cycles, renderer and
// shared purity, electron only in the root) is checked on resolved paths by dependency-cruiser:
// scripts/layers/layers.mjs, run by `npm run lint` after eslint.
import tseslint from 'typescript-eslint';

// History lives in git: a comment names why the code is so, never the issue or the date it came with.
const noHistoryMarkers = {
  meta: { type: 'suggestion', messages: { marker: 'Comments say why, not when: drop the "(issue N)" marker (history lives in git).' } },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          if (/\(issues? \d+/i.test(comment.value)) context.report({ loc: comment.loc, messageId: 'marker' });
        }
      },
    };
  },
};

export default tseslint.config(
  {
    // electron-vite writes its config bundled to electron.vite.config.ts.<n>-<hash>.mjs for a moment
    // while `npm run checks` builds beside lint: lint must not try to read it as it is deleted.
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'workspace/**', 'test-results/**', 'playwright-report/**', 'test-artifacts/**', 'bin/**', 'scripts/**/*.mjs', '*.config.ts.*.mjs', 'scripts/**/*.d.mts', '**/*.js', '!eslint.config.js'],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    plugins: { folio: { rules: { 'no-history-markers': noHistoryMarkers } } },
    rules: { 'folio/no-history-markers': 'error' },
  },
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
    },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The service's handlers are composed once (service/handlers) and layered by declared policies
    // (service/policies): patching one afterwards would hide a method's behaviour in a third file.
    files: ['src/main/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-support.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'AssignmentExpression > MemberExpression.left[object.name=/^(handlers|base)$/]',
          message: 'Handlers are not reassigned after construction: add a policy (src/main/service/policies) instead.',
        },
        {
          selector: "CallExpression[callee.object.name='Object'][callee.property.name='assign'][arguments.0.name=/^(handlers|base)$/]",
          message: 'Handlers are not reassigned after construction: add a policy (src/main/service/policies) instead.',
        },
      ],
    },
  },
  {
    // Dates and times on screen follow the UI language through Intl, in one place (lib/format): a
    // bare toLocale*String() follows the browser's locale instead (US dates in the Chinese UI).
    files: ['src/renderer/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'src/renderer/lib/format.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)String$/]',
          message: 'Format dates with formatDateTime (src/renderer/lib/format.ts) and the UI language.',
        },
        {
          selector: "CallExpression[callee.property.name='toLocaleString'][callee.object.type='NewExpression'][callee.object.callee.name='Date']",
          message: 'Format dates with formatDateTime (src/renderer/lib/format.ts) and the UI language.',
        },
      ],
    },
  },
  {
    // Renderer tests set i18next up one way, as the app does, in the language they name.
    files: ['src/renderer/**/*.test.{ts,tsx}'],
    ignores: ['src/renderer/i18n/index.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='initI18n']",
          message: 'Set up i18n in a test with useUiLanguage (src/renderer/i18n/ui-language.test-support.ts).',
        },
      ],
    },
  },
);
