import { defineConfig } from 'vitest/config';
import { fromSources, sharedTestOptions } from '../../vitest.shared.js';

export default defineConfig({
  ...fromSources,
  test: {
    ...sharedTestOptions,
    include: ['test/**/*.test.ts'],
  },
});
