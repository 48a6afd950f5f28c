import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Whether an organisation's collection was complete, published with the data.
 * - `github_activity.collection_note`: what GitHub's answer left out of this stored activity (one line), null when the
 *   collection was complete. It lives with the activity, so a week published from it later (a 304 reuse, a carried
 *   sector, a rebuild) says the same. Activity stored before this migration takes the message of the run row that
 *   recorded it as `partial`; any other stored activity was collected whole.
 * - `period_startups.collection` (`complete` | `partial`) and `collection_note`: what each published record says.
 *   Rows of the synthetic demo are generated whole (`complete`); real weeks published before this migration are left
 *   null and read as `unknown` until the week is published again (`signal-service pipeline rebuild`), because which
 *   run's activity a past publication used was not recorded.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('github_activity').addColumn('collection_note', 'text').execute();
    await sql`update github_activity a
      set collection_note = o.message
      from pipeline_run_orgs o
      where o.activity_digest = a.digest and o.status = 'partial' and o.message is not null`.execute(db);
    await db.schema
      .alterTable('period_startups')
      .addColumn('collection', 'text', (c) => c.check(sql`collection in ('complete', 'partial')`))
      .execute();
    await db.schema.alterTable('period_startups').addColumn('collection_note', 'text').execute();
    await sql`update period_startups set collection = 'complete'
      where period_slug in (select slug from periods where dataset = 'synthetic-demo')`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('period_startups').dropColumn('collection_note').execute();
    await db.schema.alterTable('period_startups').dropColumn('collection').execute();
    await db.schema.alterTable('github_activity').dropColumn('collection_note').execute();
  },
};
