import { afterEach, describe, expect, it, vi } from 'vitest';
import { Retriever } from '../src/qna/retriever.js';
import { seed, seededDataset } from '../src/seed.js';
import { ServiceState } from '../src/state.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a QnA system's search index", () => {
  it('is built when the system is first searched, once, and only for that system', async () => {
    const built = vi.spyOn(Retriever, 'deferred');
    const state = await ServiceState.create(seededDataset());
    expect(built).not.toHaveBeenCalled();
    // Listing and reading systems needs no index.
    expect(state.system(seed.systems.supportKb.systemId).system.name).toBe(seed.systems.supportKb.name);
    expect(built).not.toHaveBeenCalled();

    const { retriever } = state.system(seed.systems.supportKb.systemId);
    const hits = await retriever.search('how do I get my money back', { clauses: [] }, 3);
    expect(hits).toHaveLength(3);
    expect(state.system(seed.systems.supportKb.systemId).retriever).toBe(retriever);
    expect(built).toHaveBeenCalledTimes(1);
    expect(built.mock.calls[0]?.[0].systemId).toBe(seed.systems.supportKb.systemId);
  });

  it('is built for every system while starting with a custom model, whose vectors are checked then', async () => {
    const built = vi.spyOn(Retriever, 'deferred');
    const embed = async (texts: string[]) => texts.map((text) => [text.length, 1]);
    const state = await ServiceState.create(seededDataset(), { embed });
    expect(built).toHaveBeenCalledTimes(seededDataset().systems.length);
    expect(state.system(seed.systems.productDocs.systemId).retriever.dimensions).toBe(2);
  });

  it('is built for every system in the background with warm, before any question', async () => {
    const built = vi.spyOn(Retriever, 'deferred');
    await ServiceState.create(seededDataset(), { warm: true });
    await vi.waitFor(() => expect(built).toHaveBeenCalledTimes(seededDataset().systems.length));
  });
});
