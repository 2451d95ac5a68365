import { defineConfig } from 'vitest/config';

// Tests run in Vite's server environment, which reads its own conditions: both point at src/.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: { include: ['test/**/*.test.ts'], testTimeout: 20_000 },
});
