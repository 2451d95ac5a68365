import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.js';

// The tests run the built bin (`pnpm build` first, as turbo's test task does) as a person would.
// The browser test needs Chromium: `pnpm test:browser` runs it.
export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    exclude: ['test/**/*.browser.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // At least two workers (Vitest's default is one less than the cores: one on a two-core machine).
    // The tests spend most of their time waiting on the bins they start, so a second file runs in that
    // time: on two cores the suite took 52 s instead of 75 s, for the same CPU (35 CPU-s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // @actions/workflow-parser imports its schema JSON without `with { type: 'json' }`, which Node
    // refuses; run through Vite, which loads the JSON (eval-workflow.test.ts pins the defect).
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
