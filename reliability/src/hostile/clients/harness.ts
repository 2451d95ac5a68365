import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CaseFigures } from '../../runner/case.js';
import type { Job, JobReport } from './job.js';

// Built code: the runner runs from dist.
const CHILD = new URL('./client-child.js', import.meta.url);
const REPORT_TIMEOUT_MS = 280_000;

/** A hostile server's handler; `body` is the request body as text. */
export type HostileHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** What the hostile server saw. */
export interface ServerSide {
  requests: number;
  /** Response bytes it managed to hand to the socket. */
  bytesWritten: number;
  /** Connections still open once the client process has reported. */
  openAfter: number;
}

/** What the case concludes from the client's report and the server's side. */
export interface Verdict {
  pass: boolean;
  note: string;
  extra?: string;
}

/**
 * Serves `handler` on loopback, runs `job` in a fresh client process against it, and turns the
 * client's report (time to settle, peak RSS, descriptors) and `judge`'s verdict into the case's figures.
 */
export async function againstClient(
  handler: HostileHandler,
  job: Job,
  judge: (report: JobReport, server: ServerSide) => Verdict,
): Promise<CaseFigures> {
  const side: ServerSide = { requests: 0, bytesWritten: 0, openAfter: 0 };
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req, res) => {
    side.requests += 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      side.bytesWritten += socket.bytesWritten;
      sockets.delete(socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const child = fork(CHILD, [`http://127.0.0.1:${port}`, JSON.stringify(job)], { stdio: 'inherit' });
  try {
    const report = await new Promise<JobReport>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the client process sent no report')),
        REPORT_TIMEOUT_MS,
      );
      child.once('message', (message) => {
        clearTimeout(timer);
        resolve(message as JobReport);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the client process exited (code ${code}) without a report`));
      });
    });
    side.openAfter = sockets.size;
    for (const socket of sockets) side.bytesWritten += socket.bytesWritten;
    const verdict = judge(report, side);
    return {
      outcome: verdict.pass ? 'pass' : 'fail',
      note: verdict.note,
      answerMs: report.ms,
      ...(report.peakRss !== undefined ? { peakRss: report.peakRss } : {}),
      fds: { before: report.fdsBefore, after: report.fdsAfter },
      ...(verdict.extra !== undefined ? { extra: verdict.extra } : {}),
    };
  } finally {
    if (child.exitCode === null) child.kill();
    server.closeAllConnections();
    server.close();
  }
}

/** The outcomes of a report, counted: `ResponseTooLargeError x1`. */
export function summary(report: JobReport): string {
  const counts = new Map<string, number>();
  for (const outcome of report.outcomes) counts.set(outcome.result, (counts.get(outcome.result) ?? 0) + 1);
  return [...counts].map(([result, n]) => (n === 1 ? result : `${result} x${n}`)).join(', ');
}

/** Whether every call ended with `result`. */
export function allEnded(report: JobReport, result: string): boolean {
  return report.outcomes.length > 0 && report.outcomes.every((outcome) => outcome.result === result);
}

export const MiB = 1024 * 1024;

/** The API key the client processes send: no word in it, so any 6-character piece found is a leak. */
export const KEY = 'QXK7-a9Z2-b4Y1-WJ2M-8HTV';

/**
 * A handler that answers `status`, writes `prefix`, then `chunk` until the client goes away or
 * `budget` bytes are out (so the loop is always bounded).
 */
export function endless(
  status: number,
  headers: Record<string, string>,
  budget: number,
  chunk = Buffer.alloc(64 * 1024, 0x20),
  prefix = '',
): HostileHandler {
  return (_req, res) => {
    res.writeHead(status, headers);
    if (prefix) res.write(prefix);
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && sent < budget) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

/** A handler that reads the request and never answers. */
export const silent: HostileHandler = () => {};
