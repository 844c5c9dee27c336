// @ts-check
/**
 * Mutation testing of the modules that carry the backup's promises (issue 11): the store's item
 * and revision repositories, the sync stage, push conflicts and batching, migration, and the
 * site's output-path safety. Run by `npm run mutation` (never by `npm test`: it is slow on two
 * cores); one module: `npm run mutation -- --mutate src/store/items-repo.ts`. Scores are
 * recorded in test/mutation/RESULTS.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'src/store/items-repo.ts',
    'src/store/revisions-repo.ts',
    'src/store/item-versions-repo.ts',
    'src/sync/**/*.ts',
    '!src/sync/index.ts',
    'src/push/conflicts.ts',
    'src/push/batch-planner.ts',
    'src/push/batch-result.ts',
    'src/push/already-applied.ts',
    'src/push/remote-modified.ts',
    'src/migrate/*.ts',
    'src/site/safe-output-path.ts',
    'src/site/path-claims.ts',
    'src/site/output-writer.ts',
    'src/site/output-switch.ts',
    'src/transform/site-paths.ts',
  ],
  // Per-test coverage: each mutant runs only the tests that reach it.
  coverageAnalysis: 'perTest',
  // Two cores shared with other work: one test process at a time.
  concurrency: 1,
  timeoutMS: 10_000,
  ignorePatterns: ['cache', 'output', 'coverage', 'dist', 'reports', '.tmp'],
  // Types are checked by `npm run typecheck`; mutants that do not compile fail their tests.
  disableTypeChecks: 'src/**/*.ts',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
