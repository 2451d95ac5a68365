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
  },
});
