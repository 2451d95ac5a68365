import type { Task } from '@a2a-js/sdk';
import type { TaskStore } from '@a2a-js/sdk/server';
import { BoundedStore } from '../bounded-store.js';
import { utf8Length } from '../neutral/bytes.js';

export interface TaskMemoryLimits {
  maxTasks: number;
  maxTaskBytes: number;
}

/** The SDK's task store, and a check that does not parse the task. */
export interface AgentTaskStore extends TaskStore {
  has(taskId: string): boolean;
}

interface Kept {
  json: string;
}

/**
 * The A2A tasks of every agent, kept as JSON so their size is known and no caller shares an object
 * with the store; bounded by count and bytes, the least recently saved forgotten first, and one
 * larger than the whole byte limit not kept (see `BoundedStore`).
 */
export class TaskMemory {
  // A save makes a task the newest entry: the oldest is the stalest.
  private readonly tasks: BoundedStore<string, Kept>;

  constructor(limits: TaskMemoryLimits) {
    this.tasks = new BoundedStore({ maxEntries: limits.maxTasks, maxBytes: limits.maxTaskBytes });
  }

  /** One agent's store: its own namespace, so a task id never reaches another agent's tasks. */
  storeFor(agentId: string): AgentTaskStore {
    const key = (taskId: string) => `${agentId}\n${taskId}`;
    return {
      load: async (taskId) => this.load(key(taskId)),
      save: async (task) => this.save(key(task.id), task),
      has: (taskId) => this.tasks.has(key(taskId)),
    };
  }

  /** Forgets every task (a reset). */
  clear(): void {
    this.tasks.clear();
  }

  /** Every kept task, least recently saved first (the order restoring saves them in). */
  entries(): { agentId: string; task: Task }[] {
    return this.tasks.entries().map(([key, kept]) => ({
      agentId: key.slice(0, key.indexOf('\n')),
      task: JSON.parse(kept.json) as Task,
    }));
  }

  /** Keeps a task as if its agent had saved it. */
  restore(agentId: string, task: Task): void {
    this.save(`${agentId}\n${task.id}`, task);
  }

  get size(): number {
    return this.tasks.size;
  }

  get totalBytes(): number {
    return this.tasks.bytes;
  }

  private load(key: string): Task | undefined {
    const kept = this.tasks.get(key);
    return kept ? (JSON.parse(kept.json) as Task) : undefined;
  }

  private save(key: string, task: Task): void {
    const json = JSON.stringify(task);
    this.tasks.set(key, { json }, utf8Length(json));
  }
}
