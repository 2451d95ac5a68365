import { defineConfig } from 'vitest/config';
import { SOURCE_CONDITION, sharedTestOptions } from '../vitest.shared.js';

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION] },
  test: {
    ...sharedTestOptions,
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The allocation reading forces collections, as the bench's own processes do.
    execArgv: ['--expose-gc'],
  },
});
