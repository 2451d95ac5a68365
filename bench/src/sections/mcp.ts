import { fileURLToPath } from 'node:url';
import Dataworkz from '@dataworkz/client';
import { createDataworkzMcpServer, startHttpServer } from '@dataworkz/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Measurement, SectionResult } from '../measurement.js';
import { type Call, type CallTarget, callMany, clientName } from './callers.js';

export interface McpCallsRequest {
  readonly target: CallTarget & { readonly systemId: string };
  readonly calls: number;
  readonly rounds: number;
}

const httpName = 'MCP tool, Streamable HTTP';
const stdioName = 'MCP tool, stdio';
const QUERY = 'returns policy';

// The command as npx runs it: the built bin of the package, resolved through its exports.
const mcpBin = fileURLToPath(new URL('../bin/dataworkz-mcp.js', import.meta.resolve('@dataworkz/mcp')));

async function toolCall(client: Client, systemId: string): Promise<unknown> {
  const result = await client.callTool({ name: 'search_qna_system', arguments: { systemId, query: QUERY } });
  if (result.isError) throw new Error(`search_qna_system failed: ${JSON.stringify(result.content)}`);
  return result;
}

/**
 * The same search made directly with the client, and as an MCP tool call (MCP client → server →
 * client → emulator) over each transport: what the MCP layer adds to a call, as µs per call.
 */
export async function measureMcpCalls(request: McpCallsRequest): Promise<SectionResult> {
  const { target, calls, rounds } = request;
  const { systemId } = target;
  const dw = new Dataworkz({ baseUrl: target.url, apiKey: target.apiKey });
  const http = await startHttpServer({ createServer: () => createDataworkzMcpServer({ dw }) });
  const httpClient = new Client({ name: 'bench', version: '1' });
  await httpClient.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${http.token}` } },
    }),
  );
  const stdioClient = new Client({ name: 'bench', version: '1' });
  await stdioClient.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [mcpBin],
      env: { DATAWORKZ_BASE_URL: target.url, DATAWORKZ_API_KEY: target.apiKey },
    }),
  );
  try {
    const subjects = new Map<string, Call>([
      [clientName, () => dw.qna.search(systemId, { query: QUERY })],
      [httpName, () => toolCall(httpClient, systemId)],
      [stdioName, () => toolCall(stdioClient, systemId)],
    ]);
    const names = [...subjects.keys()];
    for (const call of subjects.values()) await callMany(call, Math.min(calls, 100), 1);
    const samples = new Map<string, number[]>(names.map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length] as string;
        const started = performance.now();
        await callMany(subjects.get(name) as Call, calls, 1);
        samples.get(name)?.push(((performance.now() - started) * 1000) / calls);
      }
    }
    const metric = `${calls.toLocaleString('en-US')} sequential searches: time per call`;
    const measurements: Measurement[] = names.map((name) => ({
      section: '8. MCP tool overhead',
      metric,
      subject: name,
      unit: 'µs',
      samples: samples.get(name) ?? [],
      ...(name === clientName ? {} : { baseline: clientName }),
    }));
    return { measurements, notes: [] };
  } finally {
    await httpClient.close();
    await stdioClient.close();
    await http.close();
  }
}
