import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { TRENDING_SIZE } from '../domain/rules.js';
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

/** One startup in one stored period (what the paid Deep Signal's `history` is built from). */
export interface StartupPeriodRow {
  period: string;
  periodName: string;
  sector: SectorSlug;
  rankOverall: number | null;
  rankInSector: number;
  compositeScore: number;
  startup: Startup;
}

/** Every stored period one organisation appears in, oldest first. */
export async function loadStartupHistory(db: Kysely<Database>, login: string): Promise<StartupPeriodRow[]> {
  const rows = await db
    .selectFrom('period_startups')
    .innerJoin('periods', 'periods.slug', 'period_startups.period_slug')
    .select([
      'period_startups.period_slug',
      'periods.name',
      'period_startups.sector',
      'period_startups.rank_overall',
      'period_startups.rank_in_sector',
      'period_startups.score_composite',
      'period_startups.startup',
    ])
    .where('period_startups.org_login', '=', login)
    .orderBy('periods.iso_year')
    .orderBy('periods.iso_week')
    .execute();
  return rows.map((r) => ({
    period: r.period_slug,
    periodName: r.name,
    sector: r.sector as SectorSlug,
    rankOverall: r.rank_overall,
    rankInSector: r.rank_in_sector,
    compositeScore: r.score_composite,
    startup: canonicalStartup(r.startup),
  }));
}

const historyCaches = new WeakMap<Kysely<Database>, WeakMap<Snapshot, LRUCache<string, Promise<StartupPeriodRow[]>>>>();

/**
 * One startup's stored history as of `snapshot`: limited to the periods the snapshot knows, read once per snapshot
 * and login (a published period never changes under a snapshot) and kept in a bounded cache that goes with the
 * snapshot. A failed read is forgotten so the next call tries again.
 */
export function startupHistoryOf(db: Kysely<Database>, snapshot: Snapshot, login: string): Promise<StartupPeriodRow[]> {
  let perSnapshot = historyCaches.get(db);
  if (!perSnapshot) historyCaches.set(db, (perSnapshot = new WeakMap()));
  let cache = perSnapshot.get(snapshot);
  if (!cache) perSnapshot.set(snapshot, (cache = new LRUCache({ max: 2_000 })));
  let pending = cache.get(login);
  if (!pending) {
    const known = new Set(snapshot.periods.map((p) => p.slug));
    pending = loadStartupHistory(db, login).then((rows) => rows.filter((r) => known.has(r.period)));
    cache.set(login, pending);
    const entry = pending;
    const owner = cache;
    entry.catch(() => {
      if (owner.get(login) === entry) owner.delete(login);
    });
  }
  return pending;
}

/** A history reader bound to a database: what `deepSignal` takes. */
export function storeHistoryReader(
  db: Kysely<Database>,
): (snapshot: Snapshot, login: string) => Promise<StartupPeriodRow[]> {
  return (snapshot, login) => startupHistoryOf(db, snapshot, login);
}
