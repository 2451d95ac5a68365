import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Cassette } from '../cassette/har.js';
import type { ModeStatus } from '../control/types.js';
import { type EmulatorControls, withControls } from '../controls.js';
import type { DriftReport } from '../drift-report.js';
import type { Answer } from '../http/answer.js';
import { errorBody, HttpError } from '../http/errors.js';
import { utf8 } from '../neutral/bytes.js';
import type { EmulatorOptions } from '../options.js';
import { StateFormatError } from '../saved-state/snapshot.js';
import { createService, type DatasetStep, type Service } from '../service.js';
import { settle } from '../settings.js';
import { readNodeBody } from './body.js';
import { answerClientError } from './client-error.js';
import { nodeDecoder } from './content-coding.js';
import { fromThisMachine } from './peer.js';
import type { DriftQueue } from './record/drift-queue.js';
import { writeAnswer } from './response.js';
import { sentenceEncoderModel } from './sentence-encoder.js';

export interface Emulator extends EmulatorControls {
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  /** The console's address (`{url}/console`; on every interface, at 127.0.0.1) with `console: true`, else undefined. */
  readonly consoleUrl: string | undefined;
  /** Recording: where the deployment's responses so far differ from the spec; undefined in the other modes. */
  readonly drift: DriftReport | undefined;
  /** Whether API requests are answered by the emulator, forwarded and recorded, or replayed from a cassette. */
  readonly mode: EmulatorMode;
  /** Stops listening and closes every open connection and stream (and, recording, the cassette). */
  close(): Promise<void>;
}

/** What the emulator answers with: its own service, a deployment it records, or a cassette it replays. */
export type EmulatorMode = 'emulating' | 'recording' | 'replaying';

/** Starts the emulator on plain node:http and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const settings = settle(options);
  const { limits, log, secrets } = settings;
  const data = options.data;
  // Read before anything is built: a bad state folder fails the start with the file at fault.
  // Each mode's modules load only when it is asked for (record, replay, saved state, the console).
  const imported =
    options.import === undefined
      ? undefined
      : await (await import('./state-folder.js')).readStateFolder(options.import, limits);
  const addData: DatasetStep | undefined =
    data || imported
      ? async (dataset) => {
          if (data) {
            const { loadDataDirectory } = await import('./data-directory.js');
            const loaded = await loadDataDirectory(data, dataset.account);
            dataset.systems = loaded.replaceSeededSystems
              ? loaded.systems
              : [...dataset.systems, ...loaded.systems];
          }
          // The exported systems are those served then, seeded ones included: they replace all.
          if (imported) dataset.systems = imported.systems.map((system) => ({ ...system }));
        }
      : undefined;
  // The console's page is read before listening, so it answers from the first request.
  const consoleModules = options.console
    ? await Promise.all([import('./console-assets.js'), import('../console/exchange-log.js')])
    : undefined;
  // The sentence encoder leads the default ranking when its optional packages are installed.
  const encoder =
    settings.ranking.embed === undefined
      ? sentenceEncoderModel({ warm: settings.ranking.warm })
      : Promise.resolve(undefined);
  // A cassette file is read before anything listens: a bad one fails the start, not the first request.
  const replayed = settings.replay;
  const replay =
    typeof replayed?.cassette === 'string'
      ? await (await import('./record/cassette-file.js')).readCassette(replayed.cassette)
      : replayed?.cassette;
  const exportDir = options.exportOnExit;
  const exportNow = exportDir
    ? async () => (await import('./state-folder.js')).writeStateFolder(exportDir, await service.exportState())
    : undefined;
  // Asked for by a route: a folder the export refuses (a planted link) is the caller's to fix, a 409.
  const exportRoute = exportNow
    ? async () => {
        try {
          return await exportNow();
        } catch (error) {
          if (error instanceof StateFormatError)
            throw new HttpError(409, error.message, {}, 'EXPORT_REFUSED');
          throw error;
        }
      }
    : undefined;
  // Loaded only to record: the validator and the spec's copy cost every other start nothing.
  const drift = options.record
    ? new (await import('./record/drift-queue.js')).DriftQueue(
        new (await import('./record/drift.js')).DriftCheck(),
        (error) => log.error('The emulator could not check a response against the spec', error),
      )
    : undefined;
  const recording = options.record
    ? await (await import('./record/session.js')).RecordSession.start(
        options.record,
        options.cassette ?? '',
        limits.maxBodyBytes,
        log,
        drift,
        // Scrubbed besides each request's own credentials: the emulator's keys.
        { secrets, recordUnreadableBodies: options.recordUnreadableBodies === true },
      )
    : undefined;
  const mode: EmulatorMode = options.record ? 'recording' : replay ? 'replaying' : 'emulating';
  let url = '';
  const assets = consoleModules ? await consoleModules[0].loadAssets() : undefined;
  const version = consoleModules ? await consoleModules[0].packageVersion() : '';
  const encoderModel = await encoder;
  const service = createService(
    { ...settings, replay: replayed && replay ? { ...replayed, cassette: replay } : undefined },
    {
      extendDataset: addData,
      decode: nodeDecoder(limits.maxRecordedBodyBytes),
      sentenceEncoder: Promise.resolve(encoderModel),
      console:
        consoleModules && assets
          ? {
              assets,
              exchanges: new consoleModules[1].ExchangeLog(limits),
              about: () => ({
                version,
                ranking: rankingOf(settings.ranking.embed, encoderModel),
                listening: url,
              }),
            }
          : undefined,
      recording: recording
        ? {
            forward: (incoming, onClose) => recording.forward(incoming, onClose),
            status: () => recording.status,
            onChange: (listener) => recording.onChange(listener),
          }
        : undefined,
      modeDetails: () => modeDetails(drift, replayed?.cassette, replay, exportDir),
      writeStateFolder: exportRoute,
    },
  );
  await service.ready;
  if (imported) await service.importState(imported);

  const headersTimeout = Math.min(limits.requestTimeoutMs, 30_000);
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout,
      // Node checks those time-outs every 30 s by default: a late request would hold its socket up to twice as long.
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
    (req, res) => {
      answer(service, url, req, res).catch((error: unknown) => {
        // Even the failure answer could not be written: end this connection, keep the process.
        log.error(`The emulator could not answer ${req.method} ${req.url?.split('?')[0]}`, error);
        req.socket.destroy();
      });
    },
  );
  // Unparseable requests (bad headers, bad request line) get a 400, late ones a 408, never a crash.
  server.on('clientError', answerClientError);
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;
  service.guard.listening(host, address.port);
  const consoleUrl = assets ? `${consoleOrigin(host, address.port, url)}/console` : undefined;

  return withControls(service, {
    url,
    consoleUrl,
    mode,
    get drift() {
      return drift?.report();
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, service.closeAll()]);
      await recording?.close();
      if (drift && options.driftReport) {
        await writeFile(options.driftReport, `${JSON.stringify(drift.report(), null, 2)}\n`);
      }
      if (exportNow) await exportNow();
    },
  });
}

/** What the console shows with the mode: the drift's findings flattened across operations, the cassette, the export folder. */
function modeDetails(
  drift: DriftQueue | undefined,
  replayOption: string | Cassette | undefined,
  replay: Cassette | undefined,
  exportFolder: string | undefined,
): Omit<ModeStatus, 'mode' | 'recording'> {
  const report = drift?.report();
  return {
    ...(replay
      ? {
          replaying: {
            cassette: typeof replayOption === 'string' ? replayOption : 'a cassette object',
            entries: replay.log.entries.length,
          },
        }
      : {}),
    ...(report
      ? {
          drift: {
            responses: report.responses,
            findings: Object.entries(report.operations).flatMap(([operationId, o]) =>
              o.findings.map((f) => ({ ...f, operationId })),
            ),
          },
        }
      : {}),
    ...(exportFolder ? { exportFolder } : {}),
  };
}

/** How QnA passages are ranked, as the landing page says it. */
function rankingOf(embed: EmulatorOptions['embed'], encoder: unknown): string {
  if (embed === false) return 'BM25 (lexical) only';
  if (typeof embed === 'function') return 'your embedding model, with BM25';
  if (embed === undefined && encoder !== undefined) return 'sentence encoder, with word vectors and BM25';
  return 'built-in word vectors, with BM25';
}

/** Where a browser opens the console: on every interface, its loopback address (the only one it answers on). */
function consoleOrigin(host: string, port: number, url: string): string {
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '[::]') return `http://[::1]:${port}`;
  return url;
}

/** Header names in lower case; repeated headers joined with `, `. */
function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * One node:http request through the service. The raw request target is passed as received (a URL
 * parser would resolve dot segments and re-encode characters the service sees as sent).
 */
async function answer(
  service: Service,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let answer: Answer;
  try {
    answer = await service.respond({
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      headers: headersOf(req),
      origin,
      local: fromThisMachine(req),
      readBody: (limit) => readNodeBody(req, limit),
      onGone: (listener) => {
        // 'close' also follows a complete response: the exchange is over either way.
        if (res.destroyed || req.socket.destroyed) listener();
        else res.once('close', listener);
      },
      rawHeaders: req.rawHeaders,
      httpVersion: req.httpVersion,
      bodyStream: () => req,
    });
  } catch {
    // A fault dropping the connection before any headers, or a client that left first.
    req.socket.destroy();
    return;
  }
  await writeAnswer(res, answer, (error, refused) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    service.log.error(`The emulator failed to handle ${req.method} ${path}`, error);
    // The plain failure answer keeps only the headers every answer has (request id, CORS).
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(refused.headers)) {
      if (name === 'x-request-id' || name.startsWith('access-control-') || name === 'vary')
        kept[name] = value;
    }
    const body = utf8(
      JSON.stringify(errorBody(500, 'The emulator failed to handle the request', path, 'INTERNAL')),
    );
    return {
      status: 500,
      headers: { ...kept, 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    };
  });
}
