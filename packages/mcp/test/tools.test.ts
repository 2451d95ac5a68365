import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { TOOL_NAMES } from '@dataworkz/mcp';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, connectHttp, connectStdio } from './support/connect.js';

const apiKey = 'mcp-tools-key';
const supportKb = seed.systems.supportKb.systemId;
const orderStatus = seed.agents.orderStatus.agentId;

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
});
afterAll(() => emu.close());

function structuredOf(result: unknown): Record<string, unknown> {
  const call = result as CallToolResult;
  expect(call.isError ?? false, JSON.stringify(call.content)).toBe(false);
  return call.structuredContent as Record<string, unknown>;
}

/** The filter text of the last search the emulator received. */
function lastFilterSent(): string | null | undefined {
  const sent = emu.requests.filter((request) => request.path.endsWith('/search')).at(-1);
  return sent && new URLSearchParams(sent.query).get('filter');
}

function textOf(result: unknown): string {
  return (result as CallToolResult).content.map((item) => (item.type === 'text' ? item.text : '')).join('');
}

describe.each([
  ['stdio', () => connectStdio({ baseUrl: emu.url, apiKey })],
  ['Streamable HTTP', () => connectHttp({ baseUrl: emu.url, apiKey })],
])('over %s', (_name, connect) => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await connect();
  });
  afterAll(() => connection.close());

  it('lists every tool, each with an input schema, an output schema and a description', async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const search = tools.find((tool) => tool.name === 'search_qna_system');
    expect(search?.inputSchema.required).toEqual(['systemId', 'query']);
    expect(search?.inputSchema.properties).toHaveProperty('filters');
  });

  it('lists the document resource template', async () => {
    const { resourceTemplates } = await connection.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'dataworkz://systems/{systemId}/documents/{documentId}',
    ]);
    const { resources } = await connection.client.listResources();
    expect(resources).toEqual([]);
  });

  it('list_qna_systems gives each system with its prompt and filter fields', async () => {
    const { systems } = structuredOf(
      await connection.client.callTool({ name: 'list_qna_systems', arguments: {} }),
    ) as { systems: { systemId: string; name: string; prompt?: string; filters: { name: string }[] }[] };
    const kb = systems.find((system) => system.systemId === supportKb);
    expect(kb?.name).toBe(seed.systems.supportKb.name);
    expect(kb?.prompt).toMatch(/support/);
    expect(kb?.filters.map((field) => field.name)).toContain('topic');
    expect(systems.map((system) => system.systemId)).toContain(seed.systems.productDocs.systemId);
  });

  it('search_qna_system applies structured filters and returns passages with resource URIs', async () => {
    const result = await connection.client.callTool({
      name: 'search_qna_system',
      arguments: { systemId: supportKb, query: 'returns policy', filters: { region: ['EU'] }, maxResults: 3 },
    });
    const { passages, appliedFilters } = structuredOf(result) as {
      passages: { text: string; uri?: string; metadata?: { region?: string } }[];
      appliedFilters?: string;
    };
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(3);
    expect(passages.every((passage) => passage.metadata?.region === 'EU')).toBe(true);
    expect(passages[0]?.uri).toMatch(/^dataworkz:\/\/systems\/[^/]+\/documents\/[^/]+$/);
    expect(appliedFilters).toMatch(/region/);
    expect(lastFilterSent()).toBe("region in ('EU')");
    const links = (result as CallToolResult).content.filter((item) => item.type === 'resource_link');
    expect(links.length).toBeGreaterThan(0);
  });

  it('keeps a filter value that looks like filter syntax a value', async () => {
    await connection.client.callTool({
      name: 'search_qna_system',
      arguments: { systemId: supportKb, query: 'returns', filters: { topic: ["x') or (1=1"] } },
    });
    expect(lastFilterSent()).toBe("topic in ('x'') or (1=1')");
  });

  it('rejects a filter field that is not an identifier, through the schema', async () => {
    const result = (await connection.client.callTool({
      name: 'search_qna_system',
      arguments: { systemId: supportKb, query: 'returns', filters: { 'topic) or (1': ['a'] } },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error: .*Invalid key in record at filters/);
    expect(lastFilterSent()).toBe("topic in ('x'') or (1=1')");
  });

  it('rejects a call without its required input with a readable message', async () => {
    const result = (await connection.client.callTool({
      name: 'answer_question',
      arguments: { systemId: supportKb },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/question/);
  });

  it('answer_question gives the answer with citations linking to document resources', async () => {
    const result = await connection.client.callTool({
      name: 'answer_question',
      arguments: { systemId: supportKb, question: 'How long do I have to return hardware?' },
    });
    const { answer, citations } = structuredOf(result) as {
      answer: string;
      citations: { index: number; uri?: string; documentId?: string }[];
    };
    expect(answer).toMatch(/30 days/);
    expect(answer).toMatch(/\[1\]/);
    expect(citations[0]?.index).toBe(1);
    expect(citations[0]?.documentId).toBe(seed.documents.returnsPolicy.documentId);
    const uri = citations[0]?.uri as string;
    const read = await connection.client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: 'application/pdf' });
    expect(
      Buffer.from((read.contents[0] as { blob: string }).blob, 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('read_document gives a text document as text, and a PDF as a resource link', async () => {
    const text = structuredOf(
      await connection.client.callTool({
        name: 'read_document',
        arguments: { systemId: supportKb, documentId: seed.documents.shippingTimes.documentId },
      }),
    ) as { text?: string; mimeType: string };
    expect(text.mimeType).toMatch(/^text\//);
    expect(text.text?.length).toBeGreaterThan(20);

    const pdf = await connection.client.callTool({
      name: 'read_document',
      arguments: { systemId: supportKb, documentId: seed.documents.returnsPolicy.documentId },
    });
    expect(structuredOf(pdf)).not.toHaveProperty('text');
    expect((pdf as CallToolResult).content).toContainEqual(
      expect.objectContaining({ type: 'resource_link', mimeType: 'application/pdf' }),
    );
  });

  it('list_agents and ask_agent answer from the seeded agents', async () => {
    const { agents } = structuredOf(
      await connection.client.callTool({ name: 'list_agents', arguments: {} }),
    ) as {
      agents: { agentId: string; name: string }[];
    };
    expect(agents.map((agent) => agent.agentId)).toContain(orderStatus);
    const asked = structuredOf(
      await connection.client.callTool({
        name: 'ask_agent',
        arguments: { agentId: orderStatus, text: 'Where is order 1001?' },
      }),
    );
    expect(asked).toMatchObject({ state: 'completed', inputRequired: false });
    expect(asked.answer).toMatch(/1001/);
    expect(asked.steps).toBeGreaterThan(0);
  });

  it('reports a query the service could not run as a tool error with its status', async () => {
    emu.faults.add({ route: 'searchQnaSystem', status: 404 });
    const result = (await connection.client.callTool({
      name: 'search_qna_system',
      arguments: { systemId: supportKb, query: 'x' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/NotFoundError \(HTTP 404\)/);
  });

  it('reports a system no id or name matches as a tool error, not a 404', async () => {
    const result = (await connection.client.callTool({
      name: 'search_qna_system',
      arguments: { systemId: 'no-such-system', query: 'x' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^UnknownNameError: No QnA system has the id or name "no-such-system"/);
  });
});
