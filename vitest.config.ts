import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['contracts/**/*.test.ts', 'simulator/**/*.test.ts', 'conformance/**/*.test.ts', 'scripts/**/*.test.ts', 'fixtures/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests that start servers pick free ports themselves; files still run in parallel on the 2 cores.
    pool: 'forks',
  },
});
