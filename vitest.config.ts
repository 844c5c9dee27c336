import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start servers and child processes; two cores is what CI has.
    pool: 'forks',
    maxWorkers: 2,
  },
});
