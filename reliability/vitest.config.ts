import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../vitest.shared.js';

// Tests run the packages from src through the `source` export condition.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    ...sharedTestOptions,
    execArgv: ['--expose-gc'],
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 30_000,
  },
});
