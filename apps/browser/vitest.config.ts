import { defineConfig } from 'vitest/config';

// Chromium, a production build of the page and the emulator all start per run: allow them time.
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
});
