import type { Task } from '@a2a-js/sdk';
import type { TaskStore } from '@a2a-js/sdk/server';
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
  bytes: number;
}

/**
 * The A2A tasks of every agent, kept as JSON so their size is known and no caller shares an object
 * with the store; bounded by count and bytes, the least recently saved forgotten first.
 */
export class TaskMemory {
  // Map order is the order of the last save: the first entry is the stalest.
  private readonly tasks = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly limits: TaskMemoryLimits) {}

  /** One agent's store: its own namespace, so a task id never reaches another agent's tasks. */
  storeFor(agentId: string): AgentTaskStore {
    const key = (taskId: string) => `${agentId}\n${taskId}`;
    return {
      load: async (taskId) => this.load(key(taskId)),
      save: async (task) => this.save(key(task.id), task),
      has: (taskId) => this.tasks.has(key(taskId)),
    };
  }

  /** Every kept task, least recently saved first (the order restoring saves them in). */
  entries(): { agentId: string; task: Task }[] {
    return [...this.tasks].map(([key, kept]) => ({
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
    return this.bytes;
  }

  private load(key: string): Task | undefined {
    const kept = this.tasks.get(key);
    return kept ? (JSON.parse(kept.json) as Task) : undefined;
  }

  private save(key: string, task: Task): void {
    const json = JSON.stringify(task);
    const bytes = utf8Length(json);
    this.forget(key);
    this.tasks.set(key, { json, bytes });
    this.bytes += bytes;
    for (const stalest of this.tasks.keys()) {
      if (this.tasks.size <= this.limits.maxTasks && this.bytes <= this.limits.maxTaskBytes) break;
      this.forget(stalest);
    }
  }

  private forget(key: string): void {
    const kept = this.tasks.get(key);
    if (!kept) return;
    this.tasks.delete(key);
    this.bytes -= kept.bytes;
  }
}
