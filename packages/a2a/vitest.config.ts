import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { fromSources, sharedTestOptions } from '../../vitest.shared.js';

export default defineConfig({
  ...fromSources,
  test: {
    ...sharedTestOptions,
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // At least two workers (Vitest's default is one less than the cores: one on a two-core machine).
    // Much of the suite waits on time-outs, back-offs and streams it paces, so a second file runs in
    // that time: on two cores the suite took 15 s instead of 24 s, for the same CPU (15 CPU-s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
