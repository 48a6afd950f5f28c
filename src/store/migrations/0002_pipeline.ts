import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The GitHub pipeline's state: runs, one row per organisation and run (the unit of work and its outcome), the raw
 * activity collected (content-addressed, so an unchanged organisation shares one copy between runs) and the
 * per-organisation conditional-request cache.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('pipeline_runs')
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('period_slug', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('dry_run', 'boolean', (c) => c.notNull())
      .addColumn('full_refresh', 'boolean', (c) => c.notNull())
      .addColumn('collect_from', 'text', (c) => c.notNull())
      .addColumn('total_orgs', 'integer', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('not_modified', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('rate_remaining', 'integer')
      .addColumn('message', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('finished_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('pipeline_runs_period').on('pipeline_runs').columns(['period_slug', 'id']).execute();

    await db.schema
      .createTable('github_activity')
      .addColumn('digest', 'text', (c) => c.primaryKey())
      .addColumn('login', 'text', (c) => c.notNull())
      .addColumn('activity', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable('pipeline_run_orgs')
      .addColumn('run_id', 'integer', (c) => c.notNull().references('pipeline_runs.id').onDelete('cascade'))
      .addColumn('login', 'text', (c) => c.notNull())
      .addColumn('entry', 'jsonb', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('activity_digest', 'text', (c) => c.references('github_activity.digest'))
      .addColumn('covers_from', 'text')
      .addColumn('covers_until', 'timestamptz')
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('pipeline_run_orgs_pk', ['run_id', 'login'])
      .execute();
    await db.schema
      .createIndex('pipeline_run_orgs_status')
      .on('pipeline_run_orgs')
      .columns(['run_id', 'status'])
      .execute();

    await db.schema
      .createTable('github_org_cache')
      .addColumn('login', 'text', (c) => c.primaryKey())
      .addColumn('probe_etag', 'text')
      .addColumn('activity_digest', 'text', (c) => c.notNull().references('github_activity.digest'))
      .addColumn('covers_from', 'text', (c) => c.notNull())
      .addColumn('covers_until', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
