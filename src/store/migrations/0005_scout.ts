import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The Scout Score's cache of GitHub star histories: one row per user (lower-case login), with the pages as read
 * (each with its ETag, so a refresh is a set of conditional requests) or the fact that GitHub does not know the user.
 * Scores are computed from these rows on every read, so a change to the validated-company list applies at once.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('scout_star_cache')
      .addColumn('login_key', 'text', (c) => c.primaryKey())
      .addColumn('found', 'boolean', (c) => c.notNull())
      .addColumn('pages', 'jsonb', (c) => c.notNull())
      .addColumn('truncated', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('fetched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
