import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** One startup's figures over the stored periods it appears in, oldest first (what the site's charts draw). */
export interface StartupSeries {
  periods: string[];
  commits: number[];
  contributors: number[];
  /** Rank across all sectors; null below the ranking floor. */
  ranks: (number | null)[];
}

/**
 * Every startup's series over every stored period, in one query: the few numbers the charts and the "movement since
 * last week" columns need, not the stored records. Keyed by lower-case organisation login.
 */
export async function loadSeries(db: Kysely<Database>): Promise<Map<string, StartupSeries>> {
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
  const series = new Map<string, StartupSeries>();
  for (const row of rows) {
    const key = row.login.toLowerCase();
    let s = series.get(key);
    if (!s) series.set(key, (s = { periods: [], commits: [], contributors: [], ranks: [] }));
    s.periods.push(row.period);
    s.commits.push(row.commits);
    s.contributors.push(row.contributors);
    s.ranks.push(row.rank);
  }
  return series;
}
