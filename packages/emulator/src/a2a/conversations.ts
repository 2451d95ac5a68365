import type { Turn } from '../agents/model.js';
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

interface Kept {
  conversation: Conversation;
  bytes: number;
}

/**
 * Conversations of every agent by contextId, bounded by turns each, by count and by bytes
 * (UTF-8 JSON); the least recently written is forgotten first.
 */
export class ConversationStore {
  // Map order is the order of the last write: the first entry is the stalest.
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly limits: ConversationLimits) {}

  /** A copy of a context's conversation; empty when it is new or was forgotten. */
  read(agentId: string, contextId: string): Conversation {
    const kept = this.kept.get(key(agentId, contextId));
    if (!kept) return { turns: [], contextValues: {} };
    return { turns: [...kept.conversation.turns], contextValues: { ...kept.conversation.contextValues } };
  }

  /** Keeps a context's conversation, with only its most recent turns. */
  write(agentId: string, contextId: string, conversation: Conversation): void {
    const k = key(agentId, contextId);
    const kept: Conversation = {
      turns: conversation.turns.slice(-this.limits.maxTurnsPerContext),
      contextValues: conversation.contextValues,
    };
    const bytes = utf8Length(JSON.stringify(kept));
    this.forget(k);
    this.kept.set(k, { conversation: kept, bytes });
    this.bytes += bytes;
    for (const stalest of this.kept.keys()) {
      if (this.kept.size <= this.limits.maxConversations && this.bytes <= this.limits.maxConversationBytes)
        break;
      this.forget(stalest);
    }
  }

  /** Every kept conversation, least recently written first (the order `write` restores). */
  entries(): { agentId: string; contextId: string; conversation: Conversation }[] {
    return [...this.kept].map(([k, kept]) => {
      const at = k.indexOf('\n');
      return { agentId: k.slice(0, at), contextId: k.slice(at + 1), conversation: kept.conversation };
    });
  }

  get size(): number {
    return this.kept.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  private forget(k: string): void {
    const kept = this.kept.get(k);
    if (!kept) return;
    this.kept.delete(k);
    this.bytes -= kept.bytes;
  }
}

const key = (agentId: string, contextId: string) => `${agentId}\n${contextId}`;
