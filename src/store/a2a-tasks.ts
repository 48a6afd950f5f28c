import { sql } from 'kysely';
import type { Executor } from './schema.js';

/** How long a task that no longer changes can be fetched (tasks/get), and stays stored. */
export const A2A_TASK_TTL_MS = 24 * 3_600_000;

/** Stores an A2A task (its whole JSON document), replacing the stored one with the same id. */
export async function saveA2aTask(db: Executor, id: string, task: unknown): Promise<void> {
  const values = { task: JSON.stringify(task), updated_at: new Date() };
  await db
    .insertInto('a2a_tasks')
    .values({ id, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

/** The stored task with this id, unless it is unknown or older than A2A_TASK_TTL_MS. */
export async function loadA2aTask(db: Executor, id: string): Promise<unknown> {
  const row = await db
    .selectFrom('a2a_tasks')
    .select('task')
    .where('id', '=', id)
    .where('updated_at', '>', new Date(Date.now() - A2A_TASK_TTL_MS))
    .executeTakeFirst();
  return row?.task;
}

/** Deletes the tasks older than A2A_TASK_TTL_MS; returns how many. */
export async function purgeA2aTasks(db: Executor): Promise<number> {
  const result = await db
    .deleteFrom('a2a_tasks')
    .where('updated_at', '<=', sql<Date>`now() - make_interval(secs => ${A2A_TASK_TTL_MS / 1000})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
