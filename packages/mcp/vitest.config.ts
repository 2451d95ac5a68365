import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.js';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run the workspace packages from src. Aliases rather than the `source` export condition: that
// condition would also reach eventsource-parser under the MCP SDK, which exports its TypeScript as `source`.
export default defineConfig({
  resolve: {
    alias: {
      '@dataworkz/mcp': source('./src/index.ts'),
      // Before the package's own name, which would otherwise match the subpath as a prefix.
      '@dataworkz/client/node-tracing': source('../client/src/node-tracing/index.ts'),
      '@dataworkz/client/internal': source('../client/src/internal/index.ts'),
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
