import type { Kysely } from 'kysely';
import { TRENDING_SIZE } from '../pipeline/rules.js';
import type { SectorSlug } from '../schemas/enums.js';
import { canonicalStartup, type Startup } from '../schemas/signals.js';
import { deriveAsync } from '../snapshot/derive-async.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import type { Database } from './schema.js';

/** One startup in one period's trending list. */
export interface TrendingRow {
  period: string;
  login: string;
  rank: number;
  sector: SectorSlug;
  startup: Startup;
}

/** Every period's trending list (rank ≤ maxRank), oldest period first, each in rank order. */
export async function loadTrendingHistory(db: Kysely<Database>, maxRank = TRENDING_SIZE): Promise<TrendingRow[]> {
  const rows = await db
    .selectFrom('period_startups')
    .innerJoin('periods', 'periods.slug', 'period_startups.period_slug')
    .select([
      'period_startups.period_slug',
      'period_startups.org_login',
      'period_startups.rank_overall',
      'period_startups.sector',
      'period_startups.startup',
    ])
    .where('period_startups.rank_overall', 'is not', null)
    .where('period_startups.rank_overall', '<=', maxRank)
    .orderBy('periods.iso_year')
    .orderBy('periods.iso_week')
    .orderBy('period_startups.rank_overall')
    .execute();
  return rows.map((r) => ({
    period: r.period_slug,
    login: r.org_login,
    rank: r.rank_overall!,
    sector: r.sector as SectorSlug,
    startup: canonicalStartup(r.startup),
  }));
}

const perDatabase = new WeakMap<Kysely<Database>, (snapshot: Snapshot) => Promise<TrendingRow[]>>();

/**
 * The trending history as of `snapshot`: read once per snapshot and database, limited to the periods the snapshot
 * knows (a period published after it was loaded waits for the next snapshot).
 */
export function trendingHistoryOf(db: Kysely<Database>, snapshot: Snapshot): Promise<TrendingRow[]> {
  let load = perDatabase.get(db);
  if (!load) {
    load = deriveAsync(async (s) => {
      const known = new Set(s.periods.map((p) => p.slug));
      return (await loadTrendingHistory(db)).filter((r) => known.has(r.period));
    });
    perDatabase.set(db, load);
  }
  return load(snapshot);
}
