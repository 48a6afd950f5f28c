import { sql, type Kysely } from 'kysely';
import { SeriesTable } from '../domain/series.js';
import { periodStartupPages, type PeriodStartupsFrom } from './periods.js';
import type { Database } from './schema.js';

/** Rows per query: each page is an index range scan well inside the statement timeout at any size. */
const SERIES_PAGE = 10_000;

/**
 * Every startup's series over every stored period: the few numbers the charts and the "movement since last week"
 * columns need, not the stored records. Read by lower-case organisation login.
 *
 * Read a period at a time, oldest first, in pages by position (periodStartupPages), not in one query: at 100,000
 * startups × 30 weeks one query returned 3 million rows at once, could outlast the statement timeout on a busy
 * machine, and held them all in the heap before the first was added.
 */
export async function loadSeries(db: Kysely<Database>, pageSize = SERIES_PAGE): Promise<SeriesTable> {
  const series = SeriesTable.builder();
  const columns = (from: PeriodStartupsFrom) =>
    from.select([
      'position',
      'org_login as login',
      'rank_overall as rank',
      sql<number>`(startup->>'commitVelocity14d')::int`.as('commits'),
      sql<number>`(startup->>'contributors')::int`.as('contributors'),
    ]);
  for await (const { period, rows } of periodStartupPages(db, columns, pageSize))
    for (const row of rows) series.add(row.login, period.slug, row.commits, row.contributors, row.rank);
  return series.finish();
}
