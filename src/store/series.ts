import { sql, type Kysely } from 'kysely';
import { SeriesTable } from '../domain/series.js';
import type { Database } from './schema.js';

/**
 * Every startup's series over every stored period, in one query: the few numbers the charts and the "movement since
 * last week" columns need, not the stored records. Read by lower-case organisation login.
 */
export async function loadSeries(db: Kysely<Database>): Promise<SeriesTable> {
  const rows = await db
    .selectFrom('period_startups')
    .innerJoin('periods', 'periods.slug', 'period_startups.period_slug')
    .select([
      'period_startups.period_slug as period',
      'period_startups.org_login as login',
      'period_startups.rank_overall as rank',
      sql<number>`(period_startups.startup->>'commitVelocity14d')::int`.as('commits'),
      sql<number>`(period_startups.startup->>'contributors')::int`.as('contributors'),
    ])
    .orderBy('periods.iso_year')
    .orderBy('periods.iso_week')
    .execute();
  const series = SeriesTable.builder();
  for (const row of rows) series.add(row.login, row.period, row.commits, row.contributors, row.rank);
  return series.finish();
}
