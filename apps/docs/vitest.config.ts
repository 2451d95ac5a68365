import { defineConfig } from 'vitest/config';

// The built site in Debian's Chromium: one browser for the file; polls wait for what a page shows
// after real work (the in-page emulator starting, an agent's steps arriving).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 30_000 } },
  },
});
