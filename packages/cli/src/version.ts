import { createRequire } from 'node:module';

/** The CLI's own version, from its package.json (shipped beside dist/). */
export const { version: cliVersion } = createRequire(import.meta.url)('../package.json') as {
  version: string;
};
