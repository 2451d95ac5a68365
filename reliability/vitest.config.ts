import { availableParallelism } from 'node:os';
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
    // At least two workers (Vitest's default is one less than the cores: one on a two-core machine):
    // the secret-echo, socket and long-text files run beside the robustness file, the longest, instead
    // of after it. On two cores the suite took 23 s instead of 34 s, for 1 CPU-s more (23 against 22).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
