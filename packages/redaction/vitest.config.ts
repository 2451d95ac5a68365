import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.js';

// Tests run from src through the `source` export condition (Vitest runs tests in Vite's SSR environment).
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    ...sharedTestOptions,
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
