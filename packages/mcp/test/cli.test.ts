import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './support/connect.js';

const run = promisify(execFile);
const apiKey = 'mcp-cli-key';
let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
});
afterAll(() => emu.close());

describe('the dataworkz-mcp command', () => {
  it('refuses an unknown flag with the usage', async () => {
    const failed = run(process.execPath, [BIN, '--bogus'], {
      env: { DATAWORKZ_BASE_URL: emu.url, DATAWORKZ_API_KEY: apiKey },
    });
    await expect(failed).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/bogus[\s\S]*Usage: dataworkz-mcp/),
    });
  });

  it('refuses HTTP options without --http', async () => {
    const failed = run(process.execPath, [BIN, '--port', '1234'], {
      env: { DATAWORKZ_BASE_URL: emu.url, DATAWORKZ_API_KEY: apiKey },
    });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringMatching(/apply only with --http/) });
  });

  it('says which setting is missing without a credential', async () => {
    const failed = run(process.execPath, [BIN], { env: { DATAWORKZ_BASE_URL: emu.url } });
    await expect(failed).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Set DATAWORKZ_API_KEY \(or DATAWORKZ_TOKEN\)/),
    });
  });

  it('says which setting is missing without a base URL', async () => {
    const failed = run(process.execPath, [BIN], { env: { DATAWORKZ_API_KEY: apiKey } });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringMatching(/DATAWORKZ_BASE_URL/) });
  });

  it('serves HTTP with --http, printing its generated token to stderr only', async () => {
    const child = spawn(process.execPath, [BIN, '--http', '--port', '0'], {
      env: { DATAWORKZ_BASE_URL: emu.url, DATAWORKZ_API_KEY: apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      const printed = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
          if (/Bearer token: \S+\n/.test(stderr)) resolve(stderr);
        });
        child.once('exit', () => reject(new Error(`exited: ${stderr}`)));
      });
      const url = /listening on (\S+)/.exec(printed)?.[1] as string;
      const token = /Bearer token: (\S+)/.exec(printed)?.[1] as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(printed).not.toContain(apiKey);
      const client = new Client({ name: 'cli-test', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const result = await client.callTool({ name: 'list_agents', arguments: {} });
      expect(result.isError ?? false).toBe(false);
      await client.close();
      expect(stdout).toBe('');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
