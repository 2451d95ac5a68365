// An A2A agent on the official SDK's server (@a2a-js/sdk 0.3.14) that cites the documents it answers
// from as file parts with URIs, as A2A agents may: the service's seeded agents do not, so the AI SDK's
// source parts are tested against this one.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, Part } from '@a2a-js/sdk';
import {
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
} from '@a2a-js/sdk/server';

export const CITING_AGENT_ID = 'citing-agent';

/** What the agent's answer cites, in order; the first one twice, as an answer may. */
export const citedDocuments = [
  { uri: 'https://docs.example/returns.pdf', name: 'Returns policy' },
  { uri: 'https://docs.example/warranty.pdf', name: 'Warranty terms' },
  { uri: 'https://docs.example/returns.pdf', name: 'Returns policy' },
];

const card: AgentCard = {
  name: 'Citing agent',
  description: 'Answers with the documents it used.',
  protocolVersion: '0.3.0',
  version: '1.0.0',
  url: 'http://127.0.0.1/',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};

const executor: AgentExecutor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    bus.publish({
      kind: 'task',
      id: taskId,
      contextId,
      status: { state: 'working' },
      history: [ctx.userMessage],
    });
    const files: Part[] = citedDocuments.map((file) => ({
      kind: 'file',
      file: { uri: file.uri, name: file.name, mimeType: 'application/pdf' },
    }));
    bus.publish({
      kind: 'artifact-update',
      taskId,
      contextId,
      lastChunk: true,
      artifact: {
        artifactId: 'answer',
        parts: [{ kind: 'text', text: 'Returns are accepted within 30 days [1][2].' }, ...files],
      },
    });
    bus.publish({ kind: 'status-update', taskId, contextId, final: true, status: { state: 'completed' } });
    bus.finished();
  },
  async cancelTask() {},
};

export async function startCitingAgent(): Promise<{ url: string; close(): Promise<void> }> {
  const handler = new JsonRpcTransportHandler(
    new DefaultRequestHandler(card, new InMemoryTaskStore(), executor),
  );
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== `/api/agents/v1/a2a/${CITING_AGENT_ID}/stream`) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"No such agent"}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const result = await handler.handle(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    if (!(Symbol.asyncIterator in Object(result))) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for await (const event of result as AsyncGenerator<unknown>)
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    res.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
