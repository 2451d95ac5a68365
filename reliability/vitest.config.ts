import { defineConfig } from 'vitest/config';
import { fromSources, sharedTestOptions } from '../vitest.shared.js';

// Tests run the packages from src through the `source` export condition.
export default defineConfig({
  ...fromSources,
  test: {
    ...sharedTestOptions,
    execArgv: ['--expose-gc'],
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
  },
});
