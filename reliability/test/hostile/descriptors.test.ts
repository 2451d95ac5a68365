import { connect, type Socket } from 'node:net';
import { seed } from '@dataworkz/emulator';
import { waitFor } from '@dataworkz/measure';
import { describe, expect, it } from 'vitest';
import { againstEmulator, full, hasProc, KEY, request } from './against-emulator.js';

/** Opens `count` connections that send `bytes` and then neither read nor close. */
async function openSilent(url: string, count: number, bytes: string): Promise<Socket[]> {
  const { hostname, port } = new URL(url);
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(Number(port), hostname, () => {
            socket.write(bytes);
            resolve(socket);
          });
          // Never read: the answer and the emulator's FIN stay unread, and this side never closes.
          socket.pause();
          socket.on('error', () => resolve(socket));
        }),
    ),
  );
}

// Each case ends with the emulator's descriptors back at their baseline (see againstEmulator), while
// the peers below still hold their sockets open: the emulator closes its side of every one.
describe.runIf(hasProc)('peers that never read', () => {
  it.each([
    // Partial requests are held until the request time-out (the full run keeps the default 30 s): one
    // long enough that all of them are open at once, on a loaded machine too.
    [
      'partial request heads',
      'GET /api/agents/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      full ? 30_000 : 5000,
      true,
    ],
    // Unparseable heads are answered 400 at once.
    [
      'malformed request heads',
      'GET /api/agents/v1/ HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n',
      1000,
      false,
    ],
  ])('%s: each is answered and closed on the emulator side', async (_name, bytes, requestTimeoutMs, held) => {
    const count = full ? 500 : 100;
    const sockets: Socket[] = [];
    try {
      await againstEmulator({ limits: { requestTimeoutMs } }, async (emu, descriptors) => {
        const baseline = descriptors();
        sockets.push(...(await openSilent(emu.url, count, bytes)));
        // Held heads are all open at once before the time-out; malformed ones may be closed already.
        // Within two: the baseline may still count a descriptor of the emulator's own that closes meanwhile.
        const opened = await waitFor(descriptors, (n) => n >= baseline + count - 2, held ? 10_000 : 500, 20);
        if (held) expect(opened.met, `descriptors ${baseline} -> ${opened.value}`).toBe(true);
        expect((await request(emu, '/api/agents/v1/')).status).toBe(200);
      });
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('whole requests for the largest answers: the descriptors return once the answers are written', async () => {
    const count = full ? 300 : 50;
    const { systemId, documentId } = seed.documents.passwordReset21;
    const paths = [
      `/api/qna/v1/systems/${systemId}/document?documentId=${documentId}`,
      `/api/qna/v1/systems/${systemId}/search?query=password&properties=context%3D200`,
    ];
    const sockets: Socket[] = [];
    try {
      await againstEmulator({}, async (emu) => {
        const requests = Array.from(
          { length: count },
          (_, i) =>
            `GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: x\r\nAuthorization: SSWS ${KEY}\r\n\r\n`,
        );
        for (const head of requests) sockets.push(...(await openSilent(emu.url, 1, head)));
      });
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

it('a 15,000-character search term is answered (the fuzzy matcher allocated its length squared)', async () => {
  await againstEmulator({}, async (emu) => {
    const path = `/api/qna/v1/systems/${seed.systems.productDocs.systemId}/search?query=${'x'.repeat(15_000)}`;
    expect((await request(emu, path)).status).toBe(200);
  });
});
