import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['contracts/**/*.test.ts', 'simulator/**/*.test.ts', 'conformance/**/*.test.ts', 'scripts/**/*.test.ts', 'fixtures/**/*.test.ts', 'client-cert/**/*.test.ts', 'proxy/**/*.test.ts', 'listen/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests that start servers pick free ports themselves. On this 2-core machine vitest runs one worker (seen
    // in CI's process list); scripts/test-all.mjs runs the rate-limit-bound vendor runs in a second process.
    pool: 'forks',
  },
});
