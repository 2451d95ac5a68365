import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The same tests on AI SDK 7 (Node 22 and later), installed as the alias `ai-v7`: the package and the
// tests import `ai`, resolved here to the other major version.
export default mergeConfig(
  base,
  defineConfig({
    resolve: {
      alias: {
        'ai/test': source('./node_modules/ai-v7/dist/test/index.js'),
        ai: source('./node_modules/ai-v7/dist/index.js'),
      },
    },
  }),
);
