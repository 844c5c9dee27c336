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
    // Every error code is defined in src/errors.ts, each by its own class: no code is made up
    // where it is thrown.
    files: ['src/**/*.ts'],
    ignores: ['src/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='CmsMirrorError']",
          message: 'Throw a typed error class of src/errors.ts (add one there for a new code).',
        },
      ],
    },
  },
  {
    // The CLI goes through the library (src/index.ts), the stages' entry points
    // (src/<stage>/index.ts) and the one errors module, never a stage's inner files: what a
    // stage offers is what its index says. Commands load stages in their action
    // (`await import(...)`), so the same rule is applied to dynamic imports too.
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/**', '!../*/index.js'],
              message: "import a stage's entry point (../<stage>/index.js) or ../index.js",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression > Literal[value=/^\\.\\.\\/[^/]+\\/(?!index\\.js$)/]',
          message: "import a stage's entry point (../<stage>/index.js) or ../index.js",
        },
        {
          selector: "NewExpression[callee.name='CmsMirrorError']",
          message: 'Throw a typed error class of src/errors.ts (add one there for a new code).',
        },
      ],
    },
  },
  {
    // The build reaches the transform through its entry point only (src/transform/index.ts):
    // the per-language transform loop and its worker are the transform's own business.
    files: ['src/site/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../transform/*', '!../transform/index.js'],
              message: "import the transform's entry point (../transform/index.js)",
            },
          ],
        },
      ],
    },
  },
  {
    // A stage's entry point offers its own folder's modules only: a stage that re-exports
    // another's internals becomes a second door to them (push once re-exported migrate's).
    files: ['src/*/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='CmsMirrorError']",
          message: 'Throw a typed error class of src/errors.ts (add one there for a new code).',
        },
        {
          selector:
            'ExportNamedDeclaration > Literal[value=/^\\.\\.\\//], ExportAllDeclaration > Literal[value=/^\\.\\.\\//]',
          message: "export this folder's modules only; import another stage from its own index",
        },
      ],
    },
  },
  {
    // Data tables: the reference site's item schemas and the first schema upgrade's DDL.
    files: ['src/reference/item-schema.ts', 'src/store/schema-upgrades/001-initial.ts'],
    rules: { 'max-lines': 'off', 'max-lines-per-function': 'off' },
  },
);
