import { connect, type Socket } from 'node:net';
import { seed } from '@dataworkz/emulator';
import type { HostileCase } from '../../../runner/case.js';
import { openDescriptors, waitFor } from '../../../runner/process-sample.js';
import { milliseconds } from '../../../runner/run-suites.js';
import { againstEmulator, KEY } from '../harness.js';

/**
 * The robustness ideas: whole requests for the largest answers (a PDF manual page, a search with 200
 * results), from peers that never read them. Descriptors should return once the answers are written.
 */
export const slowReaders: HostileCase = {
  name: 'complete requests, answers never read',
  run: (size) =>
    againstEmulator({}, async (emu) => {
      const count = size === 'quick' ? 50 : 300;
      const { hostname, port } = new URL(emu.url);
      const { systemId, documentId } = seed.documents.passwordReset21;
      const paths = [
        `/api/qna/v1/systems/${systemId}/document?documentId=${documentId}`,
        `/api/qna/v1/systems/${systemId}/search?query=password&properties=context%3D200`,
      ];
      const fds = () => openDescriptors(emu.pid) ?? Number.NaN;
      const baseline = fds();
      const sockets: Socket[] = [];
      for (let i = 0; i < count; i++) {
        const socket = connect(Number(port), hostname);
        socket.pause();
        socket.on('error', () => {});
        socket.write(
          `GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: x\r\nAuthorization: SSWS ${KEY}\r\n\r\n`,
        );
        sockets.push(socket);
      }
      try {
        const back = await waitFor(fds, (n) => n <= baseline, 30_000, 250);
        return {
          pass: back.met,
          note: back.met
            ? `${count} requests: descriptors back to ${back.value}`
            : `${count} requests: still ${back.value - baseline} above the baseline of ${baseline}`,
          extra: `baseline after ${milliseconds(back.ms)}`,
        };
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    }),
};
