import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { AmbiguousNameError, Dataworkz, UnknownNameError } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { resolveExposure } from '@dataworkz/mcp';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { twinNamesFolder } from '../../emulator/test/support/data-folder.js';
import { BIN, type Connection, connectHttp, connectStdio } from './support/connect.js';

// Allowlists (--systems, --agents and the server's options) and LLM arguments take names as well as ids.
const run = promisify(execFile);
const apiKey = 'mcp-allowlist-key';
const { supportKb, productDocs } = seed.systems;
const { orderStatus, productAdvisor } = seed.agents;
const { accountAlternate, supportKbSystem } = seed.llms;
let emu: Emulator;
let twins: Awaited<ReturnType<typeof twinNamesFolder>>;

beforeAll(async () => {
  // A data folder adds two systems that share a name, beside the seeded ones.
  twins = await twinNamesFolder();
  emu = await startEmulator({ port: 0, apiKeys: [apiKey], data: twins.dir, embed: false });
});
afterAll(async () => {
  await emu.close();
  await twins.remove();
});
afterEach(() => emu.clearRequests());

const env = () => ({ DATAWORKZ_BASE_URL: emu.url, DATAWORKZ_API_KEY: apiKey });
const textOf = (result: CallToolResult) =>
  result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
const call = async (connection: Connection, name: string, args: Record<string, unknown> = {}) =>
  (await connection.client.callTool({ name, arguments: args })) as CallToolResult;

describe('dataworkz-mcp --systems and --agents', () => {
  it('expose what the names name, resolved once at start', async () => {
    const connection = await connectStdio({
      baseUrl: emu.url,
      apiKey,
      args: [
        '--systems',
        'product documentation, Runbooks ',
        '--agents',
        `ORDER STATUS ASSISTANT,${productAdvisor.agentId}`,
      ],
    }).catch((error: unknown) => error);
    // Two systems share "Runbooks": the server does not start (see below); with one, it does.
    expect(connection).toBeInstanceOf(Error);
    emu.clearRequests();
    const ok = await connectStdio({
      baseUrl: emu.url,
      apiKey,
      args: [
        '--systems',
        'product documentation,runbooks-2',
        '--agents',
        `ORDER STATUS ASSISTANT,${productAdvisor.agentId}`,
      ],
    });
    try {
      const { systems } = (await call(ok, 'list_qna_systems')).structuredContent as {
        systems: { systemId: string }[];
      };
      expect(systems.map((s) => s.systemId)).toEqual([productDocs.systemId, 'runbooks-2']);
      const { agents } = (await call(ok, 'list_agents')).structuredContent as {
        agents: { agentId: string }[];
      };
      expect(agents.map((a) => a.agentId)).toEqual([orderStatus.agentId, productAdvisor.agentId]);
      const hidden = await call(ok, 'search_qna_system', { systemId: supportKb.name, query: 'refunds' });
      expect(hidden.isError).toBe(true);
      // One list of each kind at start, then only the tools' own: the names are not resolved again.
      const lists = (path: string) => emu.requests.filter((r) => r.path === path).length;
      expect(lists('/api/agents/v1/')).toBe(2);
      expect(lists('/api/qna/v1/systems')).toBe(3);
    } finally {
      await ok.close();
    }
    // Two server processes started and stopped: the package's 20 s is tight when every suite runs at once.
  }, 60_000);

  it('stop at start, exit 1, naming an entry that matches nothing and its close matches', async () => {
    const failed = run(process.execPath, [BIN, '--systems', `${productDocs.systemId},Product Documentaton`], {
      env: env(),
    });
    await expect(failed).rejects.toMatchObject({
      code: 1,
      stderr:
        'dataworkz-mcp: --systems: No QnA system has the id or name "Product Documentaton". ' +
        `Close matches: "${productDocs.name}" (id ${productDocs.systemId}).\n`,
    });
    const agents = run(process.execPath, [BIN, '--agents', 'Order Status'], { env: env() });
    await expect(agents).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^dataworkz-mcp: --agents: No agent has the id or name "Order Status"\. Close matches: "Order Status Assistant"/,
      ),
    });
  });

  it('stop at start on a name two systems share, listing each with its id', async () => {
    const failed = run(process.execPath, [BIN, '--http', '--port', '0', '--systems', 'runbooks'], {
      env: env(),
    });
    await expect(failed).rejects.toMatchObject({
      code: 1,
      stderr:
        'dataworkz-mcp: --systems: "runbooks" names 2 QnA systems: "Runbooks" (id runbooks-1), "RUNBOOKS" (id runbooks-2). Give the id instead.\n',
    });
  });
});

describe('the server options in code', () => {
  const dw = () => new Dataworkz({ baseUrl: emu.url, apiKey, logLevel: 'off' });

  it('resolveExposure turns names into ids, and rejects a wrong entry with the typed errors', async () => {
    expect(await resolveExposure(dw(), { systems: ['Product Documentation', supportKb.systemId] })).toEqual({
      systems: [productDocs.systemId, supportKb.systemId],
      agents: undefined,
    });
    await expect(resolveExposure(dw(), { agents: ['Nobody'] })).rejects.toBeInstanceOf(UnknownNameError);
    await expect(resolveExposure(dw(), { systems: ['runbooks'] })).rejects.toBeInstanceOf(AmbiguousNameError);
  });

  it('createDataworkzMcpServer takes names, resolved on first use and kept', async () => {
    const connection = await connectHttp({
      baseUrl: emu.url,
      apiKey,
      systems: ['customer support knowledge base'],
      agents: ['Product Advisor'],
    });
    try {
      const first = await call(connection, 'list_qna_systems');
      expect(
        (first.structuredContent as { systems: { systemId: string }[] }).systems.map((s) => s.systemId),
      ).toEqual([supportKb.systemId]);
      const agents = await call(connection, 'list_agents');
      expect(
        (agents.structuredContent as { agents: { agentId: string }[] }).agents.map((a) => a.agentId),
      ).toEqual([productAdvisor.agentId]);
      await call(connection, 'list_qna_systems');
      expect(emu.requests.filter((r) => r.path === '/api/qna/v1/systems')).toHaveLength(3);
    } finally {
      await connection.close();
      await connection.server.close();
    }
  });
});

describe('LLM arguments by name', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await connectStdio({ baseUrl: emu.url, apiKey });
  });
  afterAll(() => connection.close());

  const sent = (ending: string, parameter: string) =>
    emu.requests
      .filter((r) => r.path.endsWith(ending))
      .map((r) => new URLSearchParams(r.query).get(parameter));

  it('answer_question takes an LLM by model name or id', async () => {
    const byName = await call(connection, 'answer_question', {
      systemId: supportKb.name,
      question: 'How do I return an item?',
      llmProviderId: 'Mistral-Large',
    });
    expect(byName.isError ?? false, textOf(byName)).toBe(false);
    const byId = await call(connection, 'answer_question', {
      systemId: supportKb.systemId,
      question: 'How do I return an item?',
      llmProviderId: supportKbSystem,
    });
    expect(byId.isError ?? false, textOf(byId)).toBe(false);
    expect(sent('/answer', 'llmProviderId')).toEqual([supportKbSystem, supportKbSystem]);
  });

  it('answer_question refuses an LLM the system lacks, listing its LLMs, and asks nothing', async () => {
    const result = await call(connection, 'answer_question', {
      systemId: supportKb.name,
      question: 'How do I return an item?',
      llmProviderId: 'claude-3-5-haiku',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      `No LLM of the QnA system ${supportKb.systemId} has the id or name "claude-3-5-haiku". Its LLMs: `,
    );
    expect(sent('/answer', 'llmProviderId')).toEqual([]);
  });

  it('ask_agent takes an account LLM by model name', async () => {
    const result = await call(connection, 'ask_agent', {
      agentId: orderStatus.name,
      text: 'Where is order 1001?',
      llmId: 'CLAUDE-3-5-haiku',
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(sent('/stream', 'llmId')).toEqual([accountAlternate]);
    const unknown = await call(connection, 'ask_agent', {
      agentId: orderStatus.name,
      text: 'Hi',
      llmId: 'gpt-5',
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('No LLM of the account has the id or name "gpt-5"');
  });
});
