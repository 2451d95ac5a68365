import type { Turn } from '../agents/model.js';
import { BoundedStore } from '../bounded-store.js';
import { utf8Length } from '../neutral/bytes.js';

/** What an agent remembers of one context (contextId) between tasks. */
export interface Conversation {
  turns: Turn[];
  contextValues: Record<string, unknown>;
}

export interface ConversationLimits {
  maxTurnsPerContext: number;
  maxConversations: number;
  maxConversationBytes: number;
}

/**
 * Conversations of every agent by contextId, bounded by turns each, by count and by bytes
 * (UTF-8 JSON): the least recently written is forgotten first, and one larger than the whole byte
 * limit is not kept (see `BoundedStore`).
 */
export class ConversationStore {
  // A write makes a conversation the newest entry: the oldest is the stalest.
  private readonly kept: BoundedStore<string, Conversation>;

  constructor(private readonly limits: ConversationLimits) {
    this.kept = new BoundedStore({
      maxEntries: limits.maxConversations,
      maxBytes: limits.maxConversationBytes,
    });
  }

  /** A copy of a context's conversation; empty when it is new or was forgotten. */
  read(agentId: string, contextId: string): Conversation {
    const kept = this.kept.get(key(agentId, contextId));
    if (!kept) return { turns: [], contextValues: {} };
    return { turns: [...kept.turns], contextValues: { ...kept.contextValues } };
  }

  /** Keeps a context's conversation, with only its most recent turns. */
  write(agentId: string, contextId: string, conversation: Conversation): void {
    const kept: Conversation = {
      turns: conversation.turns.slice(-this.limits.maxTurnsPerContext),
      contextValues: conversation.contextValues,
    };
    this.kept.set(key(agentId, contextId), kept, utf8Length(JSON.stringify(kept)));
  }

  /**
   * Adds a task's turns to the conversation as it stands when the task ends, not as it stood when the
   * task began: tasks of one context that run at once each keep their turns (the most recent
   * `maxTurnsPerContext` of all). `earlier` are the turns to start from when the context has none
   * kept (a continued task carries its own exchange, should the conversation have been forgotten).
   */
  append(agentId: string, contextId: string, turns: readonly Turn[], earlier: readonly Turn[] = []): void {
    const now = this.read(agentId, contextId);
    const before = now.turns.length > 0 ? now.turns : earlier;
    this.write(agentId, contextId, { turns: [...before, ...turns], contextValues: now.contextValues });
  }

  /** Adds provided values to the context's own, as they stand now (later values of a name win). */
  provide(agentId: string, contextId: string, values: Record<string, unknown>): void {
    const now = this.read(agentId, contextId);
    // Spread, not Object.assign: a `__proto__` key must stay a value, never become the prototype.
    this.write(agentId, contextId, { turns: now.turns, contextValues: { ...now.contextValues, ...values } });
  }

  /** Forgets every conversation (a reset). */
  clear(): void {
    this.kept.clear();
  }

  /** Every kept conversation, least recently written first (the order `write` restores). */
  entries(): { agentId: string; contextId: string; conversation: Conversation }[] {
    return this.kept.entries().map(([k, conversation]) => {
      const at = k.indexOf('\n');
      return { agentId: k.slice(0, at), contextId: k.slice(at + 1), conversation };
    });
  }

  get size(): number {
    return this.kept.size;
  }

  get totalBytes(): number {
    return this.kept.bytes;
  }
}

const key = (agentId: string, contextId: string) => `${agentId}\n${contextId}`;
