import type { Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { TaskStore } from '@a2a-js/sdk/server';
import { LRUCache } from 'lru-cache';

/** Where tasks are shared between instances: the composition root backs it with the database (store/a2a-tasks.ts). */
export interface TaskRecords {
  save(id: string, task: Task): Promise<void>;
  load(id: string): Promise<unknown>;
}

/**
 * A2A tasks shared by every instance on one database: tasks/get answers on any instance, whichever one ran the task,
 * for a day after the task last changed. A task id is a random UUID the agent hands out: knowing it is what lets a
 * caller read the task (a paid answer included), so listing tasks (ListTasks) is not offered — it would show one
 * caller's tasks to another.
 *
 * The tasks this instance ran are also kept in its memory (the newest 1,000 for an hour): they are read from there
 * first, and a database that does not answer neither fails a message nor its tasks/get on this instance (A2A's free
 * skills keep answering through an outage, as the REST reads do); only other instances miss the task meanwhile.
 */
export class SharedTaskStore implements TaskStore {
  private readonly recent = new LRUCache<string, Task>({ max: 1_000, ttl: 3_600_000 });

  constructor(
    private readonly records: TaskRecords,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  async save(task: Task): Promise<void> {
    this.recent.set(task.id, structuredClone(task));
    await this.records.save(task.id, task).catch(this.onError);
  }

  async load(taskId: string): Promise<Task | undefined> {
    const mine = this.recent.get(taskId);
    if (mine) return structuredClone(mine);
    const stored = await this.records.load(taskId).catch((err: unknown) => {
      this.onError(err);
      return undefined;
    });
    return (stored as Task | undefined) ?? undefined;
  }

  async list(): Promise<never> {
    throw new UnsupportedOperationError('Listing tasks is not supported: fetch a task by its id (tasks/get).');
  }
}
