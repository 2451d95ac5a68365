import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { fromSources, sharedTestOptions } from '../vitest.shared.js';

// Tests run the packages from src through the `source` export condition.
const shared = {
  ...sharedTestOptions,
  execArgv: ['--expose-gc'],
  testTimeout: 120_000,
  hookTimeout: 30_000,
};

export default defineConfig({
  ...fromSources,
  test: {
    // At least two workers (Vitest's default is one less than the cores: one on a two-core machine):
    // the files run beside the robustness file, the longest, instead of after it.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { ...shared, name: 'robustness', include: ['test/*.test.ts'] },
      },
      {
        // Hostile peers against the emulator, each with a process of its own whose descriptors and
        // memory are asserted; the small counts unless HOSTILE_SIZE=full.
        extends: true,
        test: {
          ...shared,
          name: 'hostile',
          include: ['test/hostile/*.test.ts'],
          testTimeout: process.env.HOSTILE_SIZE === 'full' ? 900_000 : 120_000,
        },
      },
    ],
  },
});
