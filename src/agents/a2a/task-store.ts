import type { Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { TaskStore } from '@a2a-js/sdk/server';

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
 */
export class SharedTaskStore implements TaskStore {
  constructor(private readonly records: TaskRecords) {}

  async save(task: Task): Promise<void> {
    await this.records.save(task.id, task);
  }

  async load(taskId: string): Promise<Task | undefined> {
    return ((await this.records.load(taskId)) as Task | undefined) ?? undefined;
  }

  async list(): Promise<never> {
    throw new UnsupportedOperationError('Listing tasks is not supported: fetch a task by its id (tasks/get).');
  }
}
