import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the A2A SDK, loaded on demand', () => {
  it('is not loaded by a start, the lists and an agent card; the first A2A request loads it', async () => {
    // A fresh process of the built package, whose module hooks tell when @a2a-js/sdk is loaded.
    const { stdout } = await run(process.execPath, ['test/support/a2a-sdk-probe/main.mjs'], {
      cwd: packageDir,
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual([
      { step: 'lists and a card', sdkLoaded: false },
      { step: 'message/send', sdkLoaded: true, kind: 'task', state: 'completed' },
    ]);
  });
});
