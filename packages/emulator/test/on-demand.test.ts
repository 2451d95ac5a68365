import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the A2A SDK and the search index, loaded on demand', () => {
  it('are not loaded by a start, the lists and an agent card; the first A2A request and search load them', async () => {
    // A fresh process of the built package, whose module hooks tell when each is loaded.
    const { stdout } = await run(process.execPath, ['test/support/on-demand-probe/main.mjs'], {
      cwd: packageDir,
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual([
      { step: 'lists and a card', sdkLoaded: false, indexLoaded: false },
      { step: 'message/send', sdkLoaded: true, indexLoaded: false, kind: 'task', state: 'completed' },
      { step: 'search', sdkLoaded: true, indexLoaded: true, results: true },
    ]);
  });
});
