import { defineConfig } from 'vitest/config';

// Chromium, a production build of the pages and the emulator all start per test file: allow them time,
// and run the files one after the other (two browsers and two builds at once starve a small machine).
// Polls wait for what a page shows after real work (an agent's steps, the in-page emulator starting).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    expect: { poll: { timeout: 20_000 } },
  },
});
