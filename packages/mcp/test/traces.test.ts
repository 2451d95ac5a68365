import { spawn } from 'node:child_process';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../../cli/test/support/otlp-receiver.js';
import { BIN, connectStdio } from './support/connect.js';

const apiKey = 'mcp-traces-key';
const supportKb = seed.systems.supportKb.systemId;
const question = 'How long is the warranty on a laptop?';

let emu: Emulator;
let receiver: OtlpReceiver;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver.close();
  await emu.close();
});

describe('dataworkz-mcp with the OpenTelemetry variables', () => {
  it('exports each tool call as an execute_tool span with the client calls under it, flushed when the client disconnects', async () => {
    const connection = await connectStdio({
      baseUrl: emu.url,
      apiKey,
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`,
        OTEL_SERVICE_NAME: 'mcp-traces-test',
      },
    });
    // An MCP client that traces passes its context in _meta: the tool span joins its trace.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const result = (await connection.client.callTool({
      name: 'answer_question',
      arguments: { systemId: supportKb, question },
      _meta: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    await connection.close();

    const tool = await receiver.waitForSpan('execute_tool answer_question');
    expect(tool).toMatchObject({
      traceId,
      parentSpanId: callerSpanId,
      kind: 1, // INTERNAL
      scope: '@dataworkz/mcp',
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'answer_question',
        'mcp.method.name': 'tools/call',
      },
      resource: { 'service.name': 'mcp-traces-test' },
    });
    await receiver.waitForSpan('qna.answer');
    const children = receiver.spans().filter((span) => span.parentSpanId === tool.spanId);
    expect(children.map((span) => span.name).sort()).toEqual(['qna.answer', 'qna.list', 'qna.llmProviders']);
    for (const child of children) expect(child.traceId).toBe(traceId);
    expect(children.find((span) => span.name === 'qna.answer')?.attributes['gen_ai.data_source.id']).toBe(
      supportKb,
    );
    const received = receiver.bodies.join('\n');
    expect(received).not.toContain(apiKey);
    expect(received).not.toContain(question);
  });

  it('marks a failed tool call as an error, with its error type', async () => {
    const connection = await connectStdio({
      baseUrl: emu.url,
      apiKey,
      env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    });
    const result = (await connection.client.callTool({
      name: 'search_qna_system',
      arguments: { systemId: 'no-such-system', query: question },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    await connection.close();
    const tool = await receiver.waitForSpan('execute_tool search_qna_system');
    expect(tool).toMatchObject({
      statusCode: 2, // ERROR
      attributes: { 'gen_ai.tool.name': 'search_qna_system', 'error.type': 'UnknownNameError' },
      resource: { 'service.name': 'dataworkz-mcp' },
    });
  });

  it('exports the tool spans of the HTTP server when it is stopped', async () => {
    const child = spawn(process.execPath, [BIN, '--http', '--port', '0'], {
      env: {
        PATH: process.env.PATH ?? '',
        DATAWORKZ_BASE_URL: emu.url,
        DATAWORKZ_API_KEY: apiKey,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_SERVICE_NAME: 'mcp-http-traces-test',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const printed = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (/Bearer token: \S+\n/.test(stderr)) resolve(stderr);
      });
      child.once('exit', () => reject(new Error(`exited: ${stderr}`)));
    });
    const url = /listening on (\S+)/.exec(printed)?.[1] as string;
    const token = /Bearer token: (\S+)/.exec(printed)?.[1] as string;
    const client = new Client({ name: 'traces-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = (await client.callTool({ name: 'list_agents', arguments: {} })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    await client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const spans = receiver.spans().filter((span) => span.resource['service.name'] === 'mcp-http-traces-test');
    const tool = spans.find((span) => span.name === 'execute_tool list_agents');
    expect(tool?.attributes['gen_ai.tool.name']).toBe('list_agents');
    expect(spans.find((span) => span.name === 'agents.list')?.parentSpanId).toBe(tool?.spanId);
    expect(receiver.bodies.join('\n')).not.toContain(apiKey);
  });

  it('loads no exporter without the variables: the same answer, nothing sent', async () => {
    const before = receiver.bodies.length;
    const call = async (env?: Record<string, string>) => {
      const connection = await connectStdio({ baseUrl: emu.url, apiKey, ...(env ? { env } : {}) });
      const result = (await connection.client.callTool({
        name: 'list_qna_systems',
        arguments: {},
      })) as CallToolResult;
      await connection.close();
      return result;
    };
    const plain = await call();
    const disabled = await call({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SDK_DISABLED: 'true',
    });
    expect(disabled.structuredContent).toEqual(plain.structuredContent);
    // `close()` resolves once the server process has exited, and a server with an exporter flushes it
    // when its input ends, before it exits (the HTTP server's test below reads its spans the same way):
    // a stray exporter's batch would be here already.
    expect(receiver.bodies.length).toBe(before);
  });
});
