import { sql, type Kysely } from 'kysely';
import { SeriesTable } from '../domain/series.js';
import { listPeriods } from './periods.js';
import type { Database } from './schema.js';

/** Rows per query: each page is an index range scan well inside the statement timeout at any size. */
const SERIES_PAGE = 10_000;

/**
 * Every startup's series over every stored period: the few numbers the charts and the "movement since last week"
 * columns need, not the stored records. Read by lower-case organisation login.
 *
 * Read a period at a time, oldest first, in pages by position (keyset on the (period, position) unique index), not
 * in one query: at 100,000 startups × 30 weeks one query returned 3 million rows at once, could outlast the
 * statement timeout on a busy machine, and held them all in the heap before the first was added.
 */
export async function loadSeries(db: Kysely<Database>, pageSize = SERIES_PAGE): Promise<SeriesTable> {
  const series = SeriesTable.builder();
  for (const period of await listPeriods(db)) {
    let after = 0;
    for (;;) {
      const rows = await db
        .selectFrom('period_startups')
        .select([
          'position',
          'org_login as login',
          'rank_overall as rank',
          sql<number>`(startup->>'commitVelocity14d')::int`.as('commits'),
          sql<number>`(startup->>'contributors')::int`.as('contributors'),
        ])
        .where('period_slug', '=', period.slug)
        .where('position', '>', after)
        .orderBy('position')
        .limit(pageSize)
        .execute();
      for (const row of rows) series.add(row.login, period.slug, row.commits, row.contributors, row.rank);
      if (rows.length < pageSize) break;
      after = rows[rows.length - 1]!.position;
    }
  }
  return series.finish();
}
