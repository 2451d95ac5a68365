import {
  AmbiguousNameError,
  Dataworkz,
  DataworkzError,
  InvalidParameterError,
  NotFoundError,
  UnknownNameError,
} from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { twinNamesFolder } from '../../emulator/test/support/data-folder.js';

const { supportKb, productDocs } = seed.systems;
const { orderStatus, productAdvisor } = seed.agents;
let emu: Emulator;
let dw: Dataworkz;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, logLevel: 'off' });
});
afterAll(() => emu.close());
afterEach(() => {
  emu.faults.clear();
  emu.clearRequests();
});

describe('qna.resolve', () => {
  it('finds a system by id, and by its exact name in any case, with one list call each', async () => {
    expect(await dw.qna.resolve(supportKb.systemId)).toEqual(supportKb);
    expect(await dw.qna.resolve('  customer support KNOWLEDGE BASE ')).toEqual(supportKb);
    expect(emu.requests.map((r) => r.path)).toEqual(['/api/qna/v1/systems', '/api/qna/v1/systems']);
  });

  it('rejects an unknown name with the close matches, nearest first', async () => {
    const error = await dw.qna.resolve('Product Documentaton').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownNameError);
    expect(error).toBeInstanceOf(DataworkzError);
    expect(error).toMatchObject({
      name: 'UnknownNameError',
      kind: 'QnA system',
      given: 'Product Documentaton',
      closeMatches: [{ id: productDocs.systemId, name: productDocs.name }],
    });
    const far = await dw.qna.resolve('Weather forecasts').catch((e: unknown) => e);
    expect(far).toMatchObject({ closeMatches: [] });
    expect((far as Error).message).toBe(
      'No QnA system has the id or name "Weather forecasts". None has a close name.',
    );
  });

  it('rejects a name two systems share (without regard to case), listing both', async () => {
    emu.faults.add({
      route: 'listQnaSystems',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ a1: 'Manuals', b2: 'MANUALS', c3: 'Other' }),
    });
    const error = await dw.qna.resolve('manuals').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousNameError);
    expect(error).toMatchObject({
      matches: [
        { id: 'a1', name: 'Manuals' },
        { id: 'b2', name: 'MANUALS' },
      ],
    });
  });

  it('looks only among the ids given in within', async () => {
    const within = [productDocs.systemId];
    expect(await dw.qna.resolve('product documentation', { within })).toEqual(productDocs);
    await expect(dw.qna.resolve(supportKb.systemId, { within })).rejects.toBeInstanceOf(UnknownNameError);
    const error = await dw.qna.resolve('Support', { within }).catch((e: unknown) => e);
    expect(error).toMatchObject({ closeMatches: [] });
  });

  it('refuses an empty argument before sending anything', async () => {
    await expect(dw.qna.resolve('')).rejects.toBeInstanceOf(InvalidParameterError);
    expect(emu.requests).toHaveLength(0);
  });
});

describe('agents.resolve', () => {
  it('finds an agent by id or name, and names the close ones of a typo', async () => {
    expect(await dw.agents.resolve(productAdvisor.agentId)).toEqual(productAdvisor);
    expect(await dw.agents.resolve('order status assistant')).toEqual(orderStatus);
    await expect(dw.agents.resolve('Order Status Asistant')).rejects.toMatchObject({
      name: 'UnknownNameError',
      kind: 'agent',
      closeMatches: [{ id: orderStatus.agentId, name: orderStatus.name }],
    });
  });
});

describe('resolveAll', () => {
  it('resolves a list of ids and names, in order, with one list call', async () => {
    expect(await dw.qna.resolveAll(['product documentation', supportKb.systemId])).toEqual([
      productDocs,
      supportKb,
    ]);
    expect(await dw.agents.resolveAll([orderStatus.agentId, 'PRODUCT ADVISOR'])).toEqual([
      orderStatus,
      productAdvisor,
    ]);
    expect(emu.requests.map((r) => r.path)).toEqual(['/api/qna/v1/systems', '/api/agents/v1/']);
  });

  it('rejects with the first entry that names nothing', async () => {
    await expect(dw.qna.resolveAll([productDocs.systemId, 'Product Docs'])).rejects.toMatchObject({
      name: 'UnknownNameError',
      given: 'Product Docs',
      closeMatches: [{ id: productDocs.systemId }],
    });
    await expect(dw.agents.resolveAll(['x', ''])).rejects.toBeInstanceOf(InvalidParameterError);
    expect(emu.requests.map((r) => r.path)).toEqual(['/api/qna/v1/systems']);
  });
});

describe('LLMs by name', () => {
  const { accountDefault, accountAlternate, orderStatusAgent, supportKbSystem } = seed.llms;

  it('qna.resolveLlm finds a system LLM by id, and by model name in any case, with one call each', async () => {
    const llms = await dw.qna.llmProviders(supportKb.systemId);
    const [name] = Object.values(llms).filter((n) => n !== 'gpt-4o') as string[];
    expect(await dw.qna.resolveLlm(supportKb.systemId, supportKbSystem)).toEqual({
      llmProviderId: supportKbSystem,
      name: llms[supportKbSystem],
    });
    expect(await dw.qna.resolveLlm(supportKb.systemId, ` ${name?.toUpperCase()} `)).toEqual({
      llmProviderId: supportKbSystem,
      name,
    });
    expect(await dw.qna.resolveLlm(supportKb.systemId, 'GPT-4o')).toEqual({
      llmProviderId: accountDefault,
      name: 'gpt-4o',
    });
    expect(emu.requests).toHaveLength(4);
  });

  it('rejects an LLM the system does not have, listing those it has', async () => {
    const error = await dw.qna.resolveLlm(supportKb.systemId, 'claude-3-5-haiku').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownNameError);
    expect(error).toMatchObject({
      kind: 'LLM',
      given: 'claude-3-5-haiku',
      scope: `QnA system ${supportKb.systemId}`,
      available: [
        { id: accountDefault, name: 'gpt-4o' },
        { id: supportKbSystem, name: 'mistral-large' },
      ],
    });
    expect((error as Error).message).toBe(
      `No LLM of the QnA system ${supportKb.systemId} has the id or name "claude-3-5-haiku". Its LLMs: ` +
        `"gpt-4o" (id ${accountDefault}), "mistral-large" (id ${supportKbSystem}).`,
    );
    // An id of another system's LLM is no id of this one's.
    await expect(dw.qna.resolveLlm(supportKb.systemId, accountAlternate)).rejects.toBeInstanceOf(
      UnknownNameError,
    );
  });

  it('agents.resolveLlm finds an account LLM by id or name; an unlisted UUID is taken as an agent LLM id', async () => {
    expect(await dw.agents.resolveLlm('Claude-3-5-Haiku')).toEqual({
      llmProviderId: accountAlternate,
      name: 'claude-3-5-haiku',
    });
    expect(await dw.agents.resolveLlm(accountDefault)).toEqual({
      llmProviderId: accountDefault,
      name: 'gpt-4o',
    });
    expect(await dw.agents.resolveLlm(orderStatusAgent)).toEqual({
      llmProviderId: orderStatusAgent,
      name: undefined,
    });
    await expect(dw.agents.resolveLlm('gpt-4o-mini')).rejects.toMatchObject({
      name: 'UnknownNameError',
      kind: 'LLM',
      scope: 'account',
      message: expect.stringMatching(/^No LLM of the account has the id or name "gpt-4o-mini"\. Its LLMs: /),
    });
  });
});

describe('names two entries share, as a data folder defines them', () => {
  let folder: Awaited<ReturnType<typeof twinNamesFolder>>;
  let twins: Emulator;
  let tw: Dataworkz;

  beforeAll(async () => {
    folder = await twinNamesFolder({ 'llm-a': 'gpt-4o', 'llm-b': 'GPT-4o', 'llm-c': 'mistral-large' });
    twins = await startEmulator({ port: 0, data: folder.dir, embed: false });
    tw = new Dataworkz({ baseUrl: twins.url, apiKey: twins.apiKey, logLevel: 'off' });
  });
  afterAll(async () => {
    await twins.close();
    await folder.remove();
  });

  it('rejects a system name two systems share, listing each with its id; the id picks one', async () => {
    const error = await tw.qna.resolve('RUNBOOKS').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousNameError);
    expect((error as Error).message).toBe(
      '"RUNBOOKS" names 2 QnA systems: "Runbooks" (id runbooks-1), "RUNBOOKS" (id runbooks-2). Give the id instead.',
    );
    expect(await tw.qna.resolve('runbooks-2')).toEqual({ systemId: 'runbooks-2', name: 'RUNBOOKS' });
  });

  it('rejects an LLM name two configurations share, listing each with its id', async () => {
    const error = await tw.qna.resolveLlm('runbooks-1', 'gpt-4o').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousNameError);
    expect(error).toMatchObject({ kind: 'LLM', scope: 'QnA system runbooks-1' });
    expect((error as Error).message).toBe(
      '"gpt-4o" names 2 LLMs of the QnA system runbooks-1: "gpt-4o" (id llm-a), "GPT-4o" (id llm-b). Give the id instead.',
    );
    expect(await tw.qna.resolveLlm('runbooks-1', 'llm-b')).toEqual({
      llmProviderId: 'llm-b',
      name: 'GPT-4o',
    });
  });
});

describe('a 404 for a name given where an id belongs', () => {
  it('says which resolver finds the id, with no further request', async () => {
    const error = await dw.qna.search('Product Documentation', { query: 'reset' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      hint: 'If "Product Documentation" is a name, qna.resolve() finds its id.',
    });
    expect((error as Error).message).toMatch(
      /^404 No QnA system with id: Product Documentation\. If "Product Documentation" is a name, qna\.resolve\(\) finds its id\.$/,
    );
    const agent = await dw.agents.card('Order Status Assistant').catch((e: unknown) => e);
    expect(agent).toMatchObject({
      hint: 'If "Order Status Assistant" is a name, agents.resolve() finds its id.',
    });
    expect(emu.requests).toHaveLength(2);
  });

  it('leaves a 404 for a UUID-shaped id as it was', async () => {
    const error = await dw.qna.get('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toHaveProperty('hint');
    expect((error as Error).message).not.toContain('resolve()');
  });
});
