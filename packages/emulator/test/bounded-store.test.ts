import type { Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../src/a2a/conversations.js';
import { TaskMemory } from '../src/a2a/task-memory.js';
import { BoundedStore } from '../src/bounded-store.js';
import type { AnsweredQuestion } from '../src/qna/queries.js';
import { QuestionHistory } from '../src/qna/question-history.js';

const item = (name: string) => ({ name });
const names = (store: BoundedStore<string, { name: string }>) => store.values().map((v) => v.name);

describe('BoundedStore', () => {
  it('keeps at most maxEntries, the oldest going first', () => {
    const store = new BoundedStore<string, { name: string }>({ maxEntries: 3, maxBytes: 1000 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) store.set(name, item(name), 1);
    expect(names(store)).toEqual(['c', 'd', 'e']);
    expect(store.get('b')).toBeUndefined();
    expect(store.has('a')).toBe(false);
    expect(store.get('e')).toEqual(item('e'));
    expect([store.size, store.bytes]).toEqual([3, 3]);
  });

  it('keeps at most maxBytes, dropping as many of the oldest as it takes', () => {
    const store = new BoundedStore<string, { name: string }>({ maxEntries: 100, maxBytes: 10 });
    store.set('a', item('a'), 4);
    store.set('b', item('b'), 4);
    store.set('c', item('c'), 2);
    expect(names(store)).toEqual(['a', 'b', 'c']);
    expect(store.set('d', item('d'), 7)).toBe(true);
    expect(names(store)).toEqual(['c', 'd']);
    expect(store.bytes).toBe(9);
  });

  it('does not keep an entry larger than the whole store, and keeps the others', () => {
    const store = new BoundedStore<string, { name: string }>({ maxEntries: 100, maxBytes: 10 });
    store.set('a', item('a'), 3);
    store.set('b', item('b'), 3);
    expect(store.set('huge', item('huge'), 11)).toBe(false);
    expect(store.add(item('huge'), 11)).toBe(false);
    expect(names(store)).toEqual(['a', 'b']);
    expect(store.bytes).toBe(6);
    // One exactly as large as the store is kept, alone.
    expect(store.set('full', item('full'), 10)).toBe(true);
    expect(names(store)).toEqual(['full']);
  });

  it('forgets what a key held when the key is written again too large to keep', () => {
    const store = new BoundedStore<string, { name: string }>({ maxEntries: 100, maxBytes: 10 });
    store.set('a', item('a1'), 3);
    store.set('b', item('b'), 3);
    expect(store.set('a', item('a2'), 11)).toBe(false);
    expect(store.get('a')).toBeUndefined();
    expect([names(store), store.bytes]).toEqual([['b'], 3]);
  });

  it('makes an entry written again the newest, counted once', () => {
    const store = new BoundedStore<string, { name: string }>({ maxEntries: 2, maxBytes: 100 });
    store.set('a', item('a1'), 5);
    store.set('b', item('b'), 5);
    store.set('a', item('a2'), 7);
    expect(store.entries()).toEqual([
      ['b', item('b')],
      ['a', item('a2')],
    ]);
    expect(store.bytes).toBe(12);
    store.set('c', item('c'), 1);
    expect(names(store)).toEqual(['a2', 'c']);
  });

  it('counts an entry again in its place as it grows, the oldest going first', () => {
    const store = new BoundedStore<number, { name: string }>({ maxEntries: 100, maxBytes: 10 });
    store.set(1, item('one'), 2);
    store.set(2, item('two'), 2);
    store.set(3, item('three'), 2);
    expect(store.resize(3, 7)).toBe(true);
    expect(store.values().map((v) => v.name)).toEqual(['two', 'three']);
    expect(store.bytes).toBe(9);
    // The oldest grows past what is left: it goes itself, as the oldest.
    expect(store.resize(2, 4)).toBe(false);
    expect(store.values().map((v) => v.name)).toEqual(['three']);
    expect(store.resize(99, 1)).toBe(false);
  });

  it('drops an entry that grows larger than the whole store, and keeps the others', () => {
    const store = new BoundedStore<number, { name: string }>({ maxEntries: 100, maxBytes: 10 });
    store.set(1, item('one'), 2);
    store.set(2, item('two'), 2);
    expect(store.resize(2, 11)).toBe(false);
    expect(store.values().map((v) => v.name)).toEqual(['one']);
    expect([store.size, store.bytes]).toEqual([1, 2]);
  });

  it('keeps entries without a key in the same order and bounds', () => {
    const store = new BoundedStore<never, { name: string }>({ maxEntries: 2, maxBytes: 100 });
    for (const name of ['a', 'b', 'c']) expect(store.add(item(name), 1)).toBe(true);
    expect(store.values().map((v) => v.name)).toEqual(['b', 'c']);
    expect(store.entries()).toEqual([]);
    store.clear();
    expect([store.values(), store.size, store.bytes]).toEqual([[], 0, 0]);
    store.add(item('d'), 1);
    expect(store.values().map((v) => v.name)).toEqual(['d']);
  });

  it('agrees with a plain model through thousands of writes, deletes and resizes', () => {
    // Enough operations to compact the slots many times over, keyed and unkeyed entries mixed.
    const bounds = { maxEntries: 40, maxBytes: 400 };
    const store = new BoundedStore<string, { name: string }>(bounds);
    const model: { key: string | undefined; name: string; bytes: number }[] = [];
    const evict = () => {
      let total = model.reduce((sum, e) => sum + e.bytes, 0);
      while (model.length > bounds.maxEntries || total > bounds.maxBytes) total -= model.shift()?.bytes ?? 0;
    };
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 6_000; step++) {
      const key = `k${next(60)}`;
      const bytes = next(30) === 0 ? 401 : 1 + next(25);
      const name = `n${step}`;
      const at = model.findIndex((e) => e.key === key);
      switch (next(5)) {
        case 0:
          store.add(item(name), bytes);
          if (bytes <= bounds.maxBytes) model.push({ key: undefined, name, bytes });
          break;
        case 1:
          store.delete(key);
          if (at >= 0) model.splice(at, 1);
          break;
        case 2: {
          const kept = store.resize(key, bytes);
          const entry = model[at];
          if (entry && bytes > bounds.maxBytes) model.splice(at, 1);
          else if (entry) entry.bytes = bytes;
          evict();
          expect(kept).toBe(model.some((e) => e.key === key));
          break;
        }
        default:
          if (at >= 0) model.splice(at, 1);
          if (bytes <= bounds.maxBytes) model.push({ key, name, bytes });
          expect(store.set(key, item(name), bytes)).toBe(bytes <= bounds.maxBytes);
      }
      evict();
      expect(store.size).toBe(model.length);
      expect(store.bytes).toBe(model.reduce((sum, e) => sum + e.bytes, 0));
      if (step % 97 === 0) {
        expect(names(store)).toEqual(model.map((e) => e.name));
        for (const e of model) if (e.key !== undefined) expect(store.get(e.key)?.name).toBe(e.name);
      }
    }
  });
});

describe('the stores that keep records for a caller forget by the same rule', () => {
  const answered = (id: string, json: string): AnsweredQuestion => ({
    questionUuid: id,
    question: 'q',
    query: 'q',
    answer: 'a',
    contexts: [],
    scores: [],
    json,
  });

  it('question history: the oldest go first, one answer larger than the whole limit is not kept', () => {
    const history = new QuestionHistory({ maxQuestions: 10, maxQuestionBytes: 100 });
    history.record('s', answered('one', 'x'.repeat(37)), 'm', Date.UTC(2026, 10, 1));
    history.record('s', answered('two', 'x'.repeat(37)), 'm', Date.UTC(2026, 10, 2));
    // 40 bytes each (JSON, question, answer and query): a third one pushes the first out.
    history.record('s', answered('three', 'x'.repeat(37)), 'm', Date.UTC(2026, 10, 3));
    history.record('s', answered('huge', 'x'.repeat(100)), 'm', Date.UTC(2026, 10, 4));
    expect(history.months('s')).toEqual({ 'November 2026': { three: 'q', two: 'q' } });
    expect(history.entries().map((e) => e.answered.questionUuid)).toEqual(['two', 'three']);
    expect(history.question('s', 'huge')).toBeUndefined();
  });

  it('conversations: the least recently written go first, one larger than the whole limit is not kept', () => {
    const store = new ConversationStore({
      maxTurnsPerContext: 10,
      maxConversations: 10,
      maxConversationBytes: 200,
    });
    const turns = (text: string) => ({ turns: [{ by: 'USER' as const, text }], contextValues: {} });
    store.write('agent', 'a', turns('a'.repeat(40)));
    store.write('agent', 'b', turns('b'.repeat(40)));
    store.write('agent', 'a', turns('a'.repeat(41)));
    store.write('agent', 'c', turns('c'.repeat(40)));
    // Each is 80 bytes or so of JSON: `b`, written least recently, went for `c`.
    expect(store.entries().map((e) => e.contextId)).toEqual(['a', 'c']);
    store.write('agent', 'c', turns('c'.repeat(300)));
    expect(store.entries().map((e) => e.contextId)).toEqual(['a']);
    expect(store.read('agent', 'c')).toEqual({ turns: [], contextValues: {} });
    expect(store.read('agent', 'a').turns[0]?.text).toBe('a'.repeat(41));
  });

  it('tasks: the least recently saved go first, one larger than the whole limit is not kept', async () => {
    const memory = new TaskMemory({ maxTasks: 2, maxTaskBytes: 1000 });
    const store = memory.storeFor('agent');
    const task = (id: string, text = ''): Task => ({
      kind: 'task',
      id,
      contextId: 'c',
      status: { state: 'completed' },
      metadata: { text },
    });
    await store.save(task('one'));
    await store.save(task('two'));
    await store.save(task('one', 'again'));
    await store.save(task('three'));
    expect(memory.entries().map((e) => e.task.id)).toEqual(['one', 'three']);
    await store.save(task('huge', 'x'.repeat(1000)));
    expect(memory.entries().map((e) => e.task.id)).toEqual(['one', 'three']);
    expect(await store.load('huge')).toBeUndefined();
    expect(memory.size).toBe(2);
  });
});
