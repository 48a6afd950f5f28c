import { sql, type Kysely, type Migration } from 'kysely';

/** Periods, their per-startup rows, and a small key-value table for service state. */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('periods')
      .addColumn('slug', 'text', (c) => c.primaryKey())
      .addColumn('iso_year', 'integer', (c) => c.notNull())
      .addColumn('iso_week', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('starts_on', 'text', (c) => c.notNull())
      .addColumn('ends_on', 'text', (c) => c.notNull())
      .addColumn('dataset', 'text', (c) => c.notNull())
      .addColumn('dataset_name', 'text', (c) => c.notNull())
      .addColumn('startups_tracked', 'integer', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('published_at', 'timestamptz', (c) => c.notNull())
      .addUniqueConstraint('periods_iso_unique', ['iso_year', 'iso_week'])
      .execute();
    await db.schema
      .createTable('period_startups')
      .addColumn('period_slug', 'text', (c) => c.notNull().references('periods.slug').onDelete('cascade'))
      .addColumn('org_login', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('sector', 'text', (c) => c.notNull())
      .addColumn('rank_overall', 'integer')
      .addColumn('rank_in_sector', 'integer', (c) => c.notNull())
      .addColumn('eligible', 'boolean', (c) => c.notNull())
      .addColumn('score_velocity', 'integer', (c) => c.notNull())
      .addColumn('score_growth', 'integer', (c) => c.notNull())
      .addColumn('score_novelty', 'integer', (c) => c.notNull())
      .addColumn('score_composite', 'integer', (c) => c.notNull())
      .addColumn('startup', 'jsonb', (c) => c.notNull())
      .addColumn('metrics', 'jsonb', (c) => c.notNull())
      .addPrimaryKeyConstraint('period_startups_pk', ['period_slug', 'org_login'])
      .addUniqueConstraint('period_startups_position_unique', ['period_slug', 'position'])
      .execute();
    await db.schema
      .createTable('service_state')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'jsonb', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
