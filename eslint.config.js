import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint/boundaries.ts';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'test-results/**',
      'playwright-report/**',
      'bench/out/**',
      'data/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Features and modules reach each other only through their public files (scripts/eslint/boundaries.ts).
    files: ['apps/web/src/features/**', 'apps/server/src/modules/**'],
    plugins: { datalab: boundaries },
    rules: { 'datalab/feature-boundaries': 'error' },
  },
  {
    // The server's layers import downward only, and only repositories build queries
    // (scripts/eslint/server-layers.ts, docs/architecture.md).
    files: ['apps/server/src/**/*.ts'],
    plugins: { datalab: boundaries },
    rules: { 'datalab/server-layers': 'error', 'datalab/server-sql': 'error' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Shared code never reaches into features; features never reach into the app (code-style habit 9).
    files: ['apps/web/src/components/**', 'apps/web/src/lib/**', 'apps/web/src/config/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/features/**', '**/app/**'], message: 'shared code must not import features or the app' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/app/**'], message: 'features must not import the app' }] },
      ],
    },
  },
  {
    // Migrations are frozen: they never import application code.
    files: ['apps/server/src/db/migrations/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../**', '@datalab/*'], message: 'migrations must not import application code' }] },
      ],
    },
  },
);
