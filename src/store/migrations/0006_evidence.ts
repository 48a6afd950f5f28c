import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Signal types from evidence (rule `evidence-v2`). No table changes: raw activity and record metrics are JSON.
 * - Every record published before this migration is marked as classified by the older rule: its metrics get
 *   `signalEvidence: { rule: 'activity-v1' }`, and its published type stays as it is.
 * - The synthetic demo's periods are removed, so the next start regenerates them with the current generator (they are
 *   invented and deterministic; real weeks are never touched).
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await sql`update period_startups
      set metrics = metrics || jsonb_build_object('signalEvidence', jsonb_build_object('rule', 'activity-v1'))
      where not (metrics ? 'signalEvidence')`.execute(db);
    await sql`delete from period_startups
      where period_slug in (select slug from periods where dataset = 'synthetic-demo')`.execute(db);
    await sql`delete from periods where dataset = 'synthetic-demo'`.execute(db);
  },
  async down() {
    // Nothing to undo in the schema; the marks are harmless to older code.
  },
};
