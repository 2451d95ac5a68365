import { defineConfig } from 'vitest/config';

// The tests run the built bin (`pnpm build` first, as turbo's test task does) as a person would.
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
});
