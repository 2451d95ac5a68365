import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, connectHttp, connectStdio } from './support/connect.js';

const apiKey = 'mcp-progress-key';
const orderStatus = seed.agents.orderStatus.agentId;

// The MCP SDK's client hands a notification to its handler a microtask after reading it, and forgets a
// call's progress handler as soon as it reads the call's result: a last step that arrives in the same
// read as the result is dropped. With the emulator's steps back to back (no delay, its default), the
// last step and the result leave the server moments apart, as they do when an agent ends quickly.
describe.each([
  ['stdio', (emu: Emulator) => connectStdio({ baseUrl: emu.url, apiKey })],
  ['Streamable HTTP', (emu: Emulator) => connectHttp({ baseUrl: emu.url, apiKey })],
])('ask_agent over %s, steps back to back', (_name, connect) => {
  let emu: Emulator;
  let connection: Connection;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, apiKeys: [apiKey], embed: false });
    connection = await connect(emu);
  });
  afterAll(async () => {
    await connection.close();
    await emu.close();
  });

  it('every progress notification reaches the client before the result, call after call', async () => {
    for (let call = 0; call < 5; call++) {
      const progress: Progress[] = [];
      const result = (await connection.client.callTool(
        { name: 'ask_agent', arguments: { agentId: orderStatus, text: 'Where is order 1001?' } },
        undefined,
        { onprogress: (update) => progress.push(update) },
      )) as CallToolResult;
      const steps = Number((result.structuredContent as { steps: number }).steps);
      expect(steps).toBeGreaterThan(1);
      expect(progress.map((update) => update.progress)).toEqual(
        Array.from({ length: steps }, (_, index) => index + 1),
      );
    }
  });
});

describe('the MCP SDK client (the defect the ping works around)', () => {
  it('drops a progress notification read in the same chunk as the result', async () => {
    const client = new Client({ name: 'defect', version: '1.0.0' });
    // A transport that delivers what one read of stdio would: the notification and the result together.
    const transport: Transport = {
      async start() {},
      async close() {},
      async send(message: JSONRPCMessage) {
        if (!('id' in message) || !('method' in message)) return;
        const { id, method } = message;
        if (method === 'initialize') {
          const result = {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: { tools: {} },
            serverInfo: { name: 's', version: '1' },
          };
          queueMicrotask(() => transport.onmessage?.({ jsonrpc: '2.0', id, result }));
          return;
        }
        if (method !== 'tools/call') return;
        const progressToken = (message.params as { _meta: { progressToken: number } })._meta.progressToken;
        setTimeout(() => {
          transport.onmessage?.({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken, progress: 1 },
          });
          transport.onmessage?.({ jsonrpc: '2.0', id, result: { content: [] } });
        });
      },
    };
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    const progress: Progress[] = [];
    await client.callTool({ name: 'any', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    await new Promise((resolve) => setTimeout(resolve));
    expect(progress).toEqual([]);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/progress notification for an unknown token/),
    ]);
    await client.close();
  });
});
