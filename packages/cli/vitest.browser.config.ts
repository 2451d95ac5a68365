import { defineConfig } from 'vitest/config';

// The evaluation report opened from disk in headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
export default defineConfig({
  test: { include: ['test/**/*.browser.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
