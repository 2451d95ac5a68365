/**
 * Test options every package's Vitest configuration spreads into its `test` block.
 *
 * Test files share their worker's module graph (`isolate: false`): with a fresh graph per file, each
 * file re-imported the client, the A2A SDK and the emulator, which was about 40 % of the suites' CPU.
 * The price is that a file must not leave state behind, so stubbed globals and environment variables
 * are undone after every test, and a test that needs a module of its own builds it in its own process.
 * In the edge runtime (`pnpm test:edge`) every file of a worker shares one VM context: the client's suite
 * runs that way (half the CPU), the A2A suite passes `--isolate`, as an abort test in it hung on two
 * fresh CI runs of five without, and `--maxWorkers=100%`: isolated files cost more, and on two cores
 * one worker left the other core idle for the last 20 s of the step once the client's suite was done.
 *
 * Transformed modules are kept on disk (`node_modules/.experimental-vitest-cache`, keyed by each file's
 * content and the configuration, cleared when the lockfile changes): the suites on Node 22 and 24 and in
 * the edge runtime read what the first run transformed instead of transforming it again.
 */
export const sharedTestOptions = {
  isolate: false,
  unstubGlobals: true,
  unstubEnvs: true,
  experimental: { fsModuleCache: true },
} as const;

/**
 * The export condition under which each workspace package's `exports` map points at its `src`: the
 * suites resolve a package by its public name to its sources, so what is tested is what users import.
 * A name of our own rather than `source`, which some dependencies publish their TypeScript under
 * (eventsource-parser): with `source`, Vite resolved those to `.ts` files Node cannot load.
 */
export const SOURCE_CONDITION = '@dataworkz/source';

/** Spread into a Vitest configuration: tests run the workspace packages from `src` (Vite's SSR environment too). */
export const fromSources = {
  resolve: { conditions: [SOURCE_CONDITION] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION], externalConditions: [SOURCE_CONDITION] } },
};
