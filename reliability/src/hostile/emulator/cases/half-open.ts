import { connect, type Socket } from 'node:net';
import type { EmulatorProcess } from '../../../emulator-process.js';
import type { HostileCase } from '../../../runner/case.js';
import { openDescriptors, waitFor } from '../../../runner/process-sample.js';
import { milliseconds } from '../../../runner/run-suites.js';
import { againstEmulator } from '../harness.js';

/** Opens `count` connections that send `bytes` and then neither read nor close. */
async function openSilent(emu: EmulatorProcess, count: number, bytes: string): Promise<Socket[]> {
  const { hostname, port } = new URL(emu.url);
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

/**
 * Connections that stop half-way: `partial` sends part of a request, `garbage` an unparseable one.
 * The emulator must answer and destroy each, and its descriptors return to where they were.
 */
function silentPeers(name: string, bytes: string, held: boolean): HostileCase {
  return {
    name,
    run: (size) => {
      const count = size === 'quick' ? 100 : 500;
      // The full run keeps the default 30 s time-out; the quick one a short one, to stay quick.
      const requestTimeoutMs = size === 'quick' || !held ? 2000 : 30_000;
      return againstEmulator({ limits: { requestTimeoutMs } }, async (emu) => {
        const fds = () => openDescriptors(emu.pid) ?? Number.NaN;
        const baseline = fds();
        const sockets = await openSilent(emu, count, bytes);
        try {
          // Partial requests are held until the time-out; malformed ones are refused at once.
          const peak = await waitFor(fds, (n) => n >= baseline + count, held ? 10_000 : 500, 20);
          const back = await waitFor(fds, (n) => n <= baseline, requestTimeoutMs + 30_000, 250);
          return {
            pass: back.met,
            note: back.met
              ? `${count} sockets: descriptors ${baseline} -> ${peak.value} -> ${back.value}`
              : `${count} sockets: still ${back.value - baseline} above the baseline of ${baseline} after ${milliseconds(back.ms)}`,
            answerMs: back.ms,
            extra: `time-out ${milliseconds(requestTimeoutMs)}, baseline after ${milliseconds(back.ms)}`,
          };
        } finally {
          for (const socket of sockets) socket.destroy();
        }
      });
    },
  };
}

/** Item 12: partial requests from peers that never read. */
export const halfOpen = silentPeers(
  '12 half-open sockets (partial request, never read)',
  'GET /api/agents/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n',
  true,
);

/** The robustness ideas: unparseable heads, answered 400 at once, from peers that never read. */
export const garbageHeads = silentPeers(
  'malformed request heads, never read',
  'GET /api/agents/v1/ HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n',
  false,
);
