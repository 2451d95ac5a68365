import {
  AmbiguousNameError,
  Dataworkz,
  DataworkzError,
  InvalidParameterError,
  UnknownNameError,
} from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

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
