import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.js';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run the workspace packages from src.
export default defineConfig({
  resolve: {
    alias: {
      '@dataworkz/ai-sdk': source('./src/index.ts'),
      '@dataworkz/client': source('../client/src/index.ts'),
      '@dataworkz/a2a': source('../a2a/src/index.ts'),
      '@dataworkz/context-values': source('../context-values/src/index.ts'),
      '@dataworkz/emulator': source('../emulator/src/index.ts'),
    },
  },
  test: {
    ...sharedTestOptions,
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
