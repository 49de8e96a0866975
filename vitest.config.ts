import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test-support/**/*.test.ts', 'tools/**/*.test.ts', 'web/**/*.test.ts'],
    // Engine and end-to-end tests open real databases and subprocesses; two cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
