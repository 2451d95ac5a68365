import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../../cli/test/support/otlp-receiver.js';
import { connectStdio } from './support/connect.js';

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
      attributes: { 'gen_ai.tool.name': 'search_qna_system', 'error.type': expect.any(String) },
      resource: { 'service.name': 'dataworkz-mcp' },
    });
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
    // Give a stray exporter the time a batch would take to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.bodies.length).toBe(before);
  });
});
