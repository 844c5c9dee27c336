// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'cache/',
      'output/',
      'coverage/',
      '.tmp/',
      '.stryker-tmp/',
      'reports/',
      'templates/**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules for the bugs that bite here: a promise nobody awaits loses its error
    // (and, in a writer, the ordering), and an async callback where a void one is expected
    // (an event handler, forEach) throws into nowhere.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Small modules and short functions (raw lines, comments included): a function that is a
    // whole phase, or a file that holds several jobs, is split by what it does.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // Data tables: the reference site's item schemas and the first schema upgrade's DDL.
    files: ['src/reference/item-schema.ts', 'src/store/schema-upgrades/001-initial.ts'],
    rules: { 'max-lines': 'off', 'max-lines-per-function': 'off' },
  },
  {
    // Debts being paid (issue "The house"): remove a file from this list once it is split.
    files: [
      'src/client/cms-client.ts',
      'src/client/options.ts',
      'src/client/retry-interceptor.ts',
      'src/config/pipeline-writer.ts',
      'src/push/push.ts',
      'src/push/run-push.ts',
      'src/reference/seed.ts',
      'src/site/build-site.ts',
      'src/site/eleventy-renderer.ts',
      'src/site/model-from-store.ts',
      'src/site/output-writer.ts',
      'src/site/run-build.ts',
      'src/site/site-plan.ts',
      'src/store/items-repo.ts',
      'src/transform/transform-runner.ts',
      'src/watch/watch.ts',
    ],
    rules: { 'max-lines': 'off', 'max-lines-per-function': 'off' },
  },
);
