import { type Kysely, type Migration } from 'kysely';

/**
 * A2A tasks: every task the agent hands out, kept in the database so that `tasks/get` answers on any
 * instance, whichever one ran the task. A task is a JSON document of the A2A protocol, written whole at each change;
 * tasks unchanged for a day are deleted by the hourly purge.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('a2a_tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('task', 'jsonb', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('a2a_tasks_updated').on('a2a_tasks').column('updated_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('a2a_tasks').execute();
  },
};
