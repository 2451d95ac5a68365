import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import { StreamAgentExecutor, streamAgentCard } from './stream-agent.js';

export interface StreamSource {
  readonly info: { readonly url: string; readonly apiKey: string };
  close(): Promise<void>;
}

/** `POST /api/agents/v1/a2a/events-<n>/stream` streams exactly n events. */
const streamPath = /^\/api\/agents\/v1\/a2a\/events-(\d{1,7})\/stream$/;
const maxBodyBytes = 1 << 20;
const chunkBytes = 64 * 1024;

/**
 * An A2A v0.3 server on the official SDK (DefaultRequestHandler driven through JsonRpcTransportHandler)
 * that streams a chosen number of events, so every streaming client is measured on the same bytes.
 *
 * The first request for a given event count and JSON-RPC id is served live and recorded; later ones
 * replay the recording. Served live, the SDK's server writes ~200,000 events/s on this kind of machine,
 * about what a bare parser reads, so a live stream would measure the server, not the clients.
 */
export async function startStreamSource(apiKey: string): Promise<StreamSource> {
  const handlers = new Map<number, JsonRpcTransportHandler>();
  const recordings = new Map<string, Buffer[]>();
  let url = '';
  const handlerFor = (events: number) => {
    let handler = handlers.get(events);
    if (!handler) {
      const card = streamAgentCard(`${url}/api/agents/v1/a2a/events-${events}/stream`);
      handler = new JsonRpcTransportHandler(
        new DefaultRequestHandler(card, new InMemoryTaskStore(), new StreamAgentExecutor(events)),
      );
      handlers.set(events, handler);
    }
    return handler;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const match = streamPath.exec(req.url?.split('?', 1)[0] ?? '');
    if (req.method !== 'POST' || !match) return sendJson(res, 404, { error: 'Not Found' });
    if (req.headers.authorization !== `SSWS ${apiKey}`) return sendJson(res, 401, { error: 'Unauthorized' });
    const body = await readJson(req);
    if (body === undefined) return sendJson(res, 400, { error: 'Bad Request' });
    const events = Number(match[1]);
    const key = `${events} ${JSON.stringify(body.id)}`;
    const recording = recordings.get(key);
    if (recording) return replay(res, recording);

    const outcome = await handlerFor(events).handle(body, new ServerCallContext());
    if (!(Symbol.asyncIterator in outcome)) return sendJson(res, 200, outcome);
    const frames: string[] = [];
    res.writeHead(200, sseHeaders);
    for await (const event of outcome) {
      if (res.destroyed) break;
      const frame = `data: ${JSON.stringify(event)}\n\n`;
      frames.push(frame);
      if (!res.write(frame)) await drained(res);
    }
    res.end();
    if (frames.length === events) recordings.set(key, toChunks(frames));
  };

  const server = createServer((req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal Server Error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { info: { url, apiKey }, close: () => closeServer(server) };
}

const sseHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** The first frame alone (time to first event is not held back by batching), the rest in large chunks. */
function toChunks(frames: readonly string[]): Buffer[] {
  const chunks = [Buffer.from(frames[0] ?? '')];
  let pending = '';
  for (let i = 1; i < frames.length; i++) {
    pending += frames[i];
    if (pending.length >= chunkBytes) {
      chunks.push(Buffer.from(pending));
      pending = '';
    }
  }
  if (pending !== '') chunks.push(Buffer.from(pending));
  return chunks;
}

async function replay(res: ServerResponse, chunks: readonly Buffer[]): Promise<void> {
  res.writeHead(200, sseHeaders);
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drained(res);
  }
  res.end();
}

/** Resolves when the socket takes more data, or when it has closed (then nothing more is written). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function readJson(req: IncomingMessage): Promise<{ id?: unknown } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof body === 'object' && body !== null ? body : undefined;
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
