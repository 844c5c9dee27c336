import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against mutated code (`npm run mutation`; see stryker.config.mjs).
 * Only in-process tests can kill a mutant: tests that spawn the CLI run `dist/`, which Stryker
 * does not mutate, so they would only cost time. The unit tests of the modules that carry the
 * promises run by default; `MUTATION_TESTS=all` adds the in-process integration tests of the
 * pull, push and migration against the reference site (slow: minutes per module on two cores).
 * `MUTATION_INCLUDE=glob,glob` runs only those test files, to keep a one-module run small (Stryker's
 * first, unmutated run goes through every included test).
 */
const unit = [
  'test/unit/store/**/*.test.ts',
  'test/unit/sync/**/*.test.ts',
  'test/unit/push/**/*.test.ts',
  'test/unit/migrate/**/*.test.ts',
  'test/unit/site/safe-output-path*.test.ts',
  'test/unit/site/output-writer*.test.ts',
  'test/unit/site/output-switch*.test.ts',
  'test/unit/transform/site-paths*.test.ts',
  'test/unit/transform/item-site-paths.test.ts',
  'test/unit/transform/plain-path-fast-path.test.ts',
];

const integration = [
  'test/integration/sync/*.test.ts',
  'test/integration/push/*.test.ts',
  'test/integration/migrate/*.test.ts',
  'test/integration/site/hostile-paths.test.ts',
];

function selected(): string[] {
  const only = process.env['MUTATION_INCLUDE'];
  if (only !== undefined && only !== '') return only.split(',');
  return process.env['MUTATION_TESTS'] === 'all' ? [...unit, ...integration] : unit;
}

export default defineConfig({
  test: {
    include: selected(),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
