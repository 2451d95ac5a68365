import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { streamRequest } from '@dataworkz/measure';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

// A fresh process of the built package whose only work is an in-process call that waits: nothing but
// the emulator's own timers can hold it open (no socket, no encoder loading in the background).
const program = (route: string, fault: string, call: string) => `
import { createEmulator } from '@dataworkz/emulator';
const emu = createEmulator({ agentStepDelayMs: 150 });
const headers = { authorization: 'SSWS ' + emu.apiKey, 'content-type': 'application/json' };
${fault === '' ? '' : `emu.faults.add({ route: '${route}', ${fault} });`}
const res = await emu.fetch(${call});
const text = await res.text();
console.log(res.status, text.length > 0);
await emu.close();
`;

async function runProgram(source: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], {
    cwd: packageDir,
    timeout: 30_000,
  });
  return stdout.trim();
}

describe('createEmulator().fetch holds the process open while a call waits', () => {
  it('through a fault’s latency, as a request in flight to a slow server would', async () => {
    const call = `new Request('http://emulator.local/api/qna/v1/systems', { headers })`;
    expect(await runProgram(program('listQnaSystems', 'latencyMs: 300', call))).toBe('200 true');
  });

  it('through the pauses between a stream’s steps', async () => {
    const list = await runProgram(`
import { createEmulator } from '@dataworkz/emulator';
const emu = createEmulator();
const res = await emu.fetch(new Request('http://emulator.local/api/agents/v1/', { headers: { authorization: 'SSWS ' + emu.apiKey } }));
console.log(JSON.parse(await res.text())[0].agentId);
await emu.close();
`);
    const body = streamRequest('Where is order 1001?');
    const call = `new Request('http://emulator.local/api/agents/v1/a2a/${list}/stream', { method: 'POST', headers, body: ${JSON.stringify(body)} })`;
    expect(await runProgram(program('', '', call))).toBe('200 true');
  });
});
