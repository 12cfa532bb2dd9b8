// Lint: typed rules for every file. Layering (which folder may import which, no cycles, renderer and
// shared purity, electron only in the root) is checked on resolved paths by dependency-cruiser:
// scripts/layers/layers.mjs, run by `npm run lint` after eslint.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'workspace/**', 'test-results/**', 'playwright-report/**', 'test-artifacts/**', 'bin/**', 'scripts/**/*.mjs', 'scripts/**/*.d.mts', '**/*.js', '!eslint.config.js'],
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
);
