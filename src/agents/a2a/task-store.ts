import type { Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { TaskStore } from '@a2a-js/sdk/server';
import { LRUCache } from 'lru-cache';

/**
 * Where A2A tasks are kept for tasks/get (GetTask): in this process's memory, the newest `max` tasks for at most
 * `ttlMs` after their last change (by default 10,000 tasks for an hour), so the store never grows without bound.
 * A task id is a random UUID the agent hands out: knowing it is what lets a caller read the task (a paid answer
 * included), so listing tasks (ListTasks) is not offered — it would show one caller's tasks to another.
 */
export class BoundedTaskStore implements TaskStore {
  private readonly tasks: LRUCache<string, Task>;

  constructor(options: { max?: number; ttlMs?: number } = {}) {
    this.tasks = new LRUCache<string, Task>({ max: options.max ?? 10_000, ttl: options.ttlMs ?? 3_600_000 });
  }

  async save(task: Task): Promise<void> {
    this.tasks.set(task.id, structuredClone(task));
  }

  async load(taskId: string): Promise<Task | undefined> {
    const task = this.tasks.get(taskId);
    return task ? structuredClone(task) : undefined;
  }

  async list(): Promise<never> {
    throw new UnsupportedOperationError('Listing tasks is not supported: fetch a task by its id (tasks/get).');
  }

  get size(): number {
    return this.tasks.size;
  }
}
