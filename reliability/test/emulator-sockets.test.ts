import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { seed } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmulatorProcess } from '../src/emulator-process.js';
import { openDescriptors, waitFor } from '../src/runner/process-sample.js';

const SOCKETS = 100;
let emu: EmulatorProcess;
const sockets: Socket[] = [];

beforeAll(async () => {
  emu = await EmulatorProcess.start({ apiKeys: ['sockets-key'], limits: { requestTimeoutMs: 1000 } });
  // A first search waits for the sentence encoder, whose weights load in the background from start-up:
  // the files it reads meanwhile would otherwise come and go between the counts below.
  const search = await fetch(
    `${emu.url}/api/qna/v1/systems/${seed.systems.supportKb.systemId}/search?query=returns`,
    {
      headers: { authorization: `SSWS ${emu.apiKey}` },
      signal: AbortSignal.timeout(60_000),
    },
  );
  await search.arrayBuffer();
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await emu?.close();
});

const fds = () => openDescriptors(emu.pid) ?? Number.NaN;

describe.runIf(existsSync('/proc/self/fd'))('connections that never finish their request', () => {
  it('are answered and closed on the emulator side, even when the peer never reads nor closes', async () => {
    const { port, hostname } = new URL(emu.url);
    const baseline = fds();
    for (let i = 0; i < SOCKETS; i++) {
      const socket = connect(Number(port), hostname);
      // Never read: the answer and the emulator's FIN stay unread, and this side never closes.
      socket.pause();
      socket.on('error', () => {});
      socket.write('GET /api/agents/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      sockets.push(socket);
    }
    const opened = await waitFor(fds, (n) => n >= baseline + SOCKETS, 10_000);
    expect(opened.met, `descriptors ${baseline} -> ${opened.value}`).toBe(true);
    // The request time-out is 1 s; the wait is bounded well past it, and its length is not asserted.
    const released = await waitFor(fds, (n) => n <= baseline, 30_000);
    expect(released.value, `descriptors ${baseline} -> ${released.value}`).toBeLessThanOrEqual(baseline);
    const answer = await fetch(`${emu.url}/api/agents/v1/`, {
      headers: { authorization: `SSWS ${emu.apiKey}` },
      signal: AbortSignal.timeout(10_000),
    });
    expect(answer.status).toBe(200);
  });
});
