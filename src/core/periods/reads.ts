import { LRUCache } from 'lru-cache';
import { ServiceError } from '../../domain/errors.js';
import type { HistoryEntry, PeriodStartup } from '../../domain/period-startup.js';
import { TRENDING_SIZE } from '../../domain/rules.js';
import type { SectorSlug } from '../../schemas/enums.js';
import { startupHistory, trendingHistory } from '../../snapshot/history.js';
import {
  derive,
  periodStartupOf,
  type PeriodInfo,
  type Snapshot,
  type SnapshotStartup,
} from '../../snapshot/snapshot.js';
import { resolveStrict, type StrictLookup } from '../signals/resolve.js';

/**
 * The period reads, for the current period and every earlier stored one: trending, a sector's ranking, one startup
 * in a week, its history, a comparison and its leader, the list of periods. Every surface (REST, the agent tools,
 * A2A, the website) asks these and only translates the answer into its own shape, so the same question gets the
 * same answer everywhere. The current period is the snapshot itself; an earlier one is read through the snapshot's
 * `source` once per snapshot and period, and kept with the snapshot (its `derived` map), so it goes with the period
 * when a newer one is swapped in.
 */

export type { HistoryEntry, PeriodStartup };

/** A list of one period's startups, and which period it is. */
export interface PeriodList {
  info: PeriodInfo;
  /** Whether it is the snapshot's own (current) period. */
  current: boolean;
  startups: PeriodStartup[];
}

/** The `period` argument every read accepts: an ISO week slug. */
export const PERIOD_SLUG_PATTERN = /^\d{4}-w\d{2}$/;

/** The earlier periods read so far, a few at a time (least recently used dropped first). */
const earlierPeriods = derive(() => new LRUCache<string, Promise<PeriodStartup[]>>({ max: 8 }));
const ofSnapshot = (snapshot: Snapshot) => (s: SnapshotStartup) => periodStartupOf(snapshot.period.slug, s);
const currentStartups = derive((snapshot) => snapshot.startups.map(ofSnapshot(snapshot)));
const currentTrending = derive((snapshot) => snapshot.trending.map(ofSnapshot(snapshot)));
const currentSectors = derive(
  (snapshot) =>
    new Map([...snapshot.bySector].map(([sector, list]) => [sector, list.map(ofSnapshot(snapshot))] as const)),
);

/** The stored period of that slug (the current one when absent), or undefined when no such period is stored. */
export function storedPeriod(snapshot: Snapshot, slug: string | undefined): PeriodInfo | undefined {
  if (slug === undefined || slug === snapshot.period.slug) return snapshot.period;
  return snapshot.periods.find((p) => p.slug === slug);
}

/** The stored period of that slug (the current one when absent), or a 404 naming where the list is. */
export function periodInfo(snapshot: Snapshot, slug: string | undefined): PeriodInfo {
  const info = storedPeriod(snapshot, slug);
  if (info) return info;
  throw new ServiceError('period-not-stored', { slug: slug!, stored: snapshot.periods.map((p) => p.slug) });
}

/** A period as the reads name it. */
export function periodRef(info: PeriodInfo): { slug: string; name: string } {
  return { slug: info.slug, name: info.name };
}

/** Every startup of a stored period (the current one when `slug` is absent); a period not stored is a 404. */
export async function periodView(snapshot: Snapshot, slug: string | undefined): Promise<PeriodList> {
  const info = periodInfo(snapshot, slug);
  if (info.slug === snapshot.period.slug) return { info, current: true, startups: currentStartups(snapshot) };
  const cache = earlierPeriods(snapshot);
  let pending = cache.get(info.slug);
  if (!pending) {
    const entry = snapshot.source.periodStartups(info.slug);
    cache.set(info.slug, entry);
    entry.catch(() => {
      if (cache.get(info.slug) === entry) cache.delete(info.slug);
    });
    pending = entry;
  }
  return { info, current: false, startups: await pending };
}

/** The trending list of a stored period: its top TRENDING_SIZE across sectors, in rank order. */
export async function trending(snapshot: Snapshot, slug: string | undefined): Promise<PeriodList> {
  const info = periodInfo(snapshot, slug);
  if (info.slug === snapshot.period.slug) return { info, current: true, startups: currentTrending(snapshot) };
  // Every period's trending list is read once per snapshot: lighter than the whole of an earlier period.
  const startups = (await trendingHistory(snapshot)).filter(
    (s) => s.period === info.slug && s.rankOverall !== null && s.rankOverall <= TRENDING_SIZE,
  );
  return { info, current: false, startups };
}

/** One sector's ranking in a stored period: every startup of that sector that week, by rank in the sector. */
export async function sectorRanking(
  snapshot: Snapshot,
  sector: SectorSlug,
  slug: string | undefined,
): Promise<PeriodList> {
  const info = periodInfo(snapshot, slug);
  if (info.slug === snapshot.period.slug) {
    return { info, current: true, startups: currentSectors(snapshot).get(sector) ?? [] };
  }
  const view = await periodView(snapshot, info.slug);
  const startups = view.startups.filter((s) => s.sector === sector).sort((a, b) => a.rankInSector - b.rankInSector);
  return { info, current: false, startups };
}

/** One startup in one stored week, with the week; `startup` is undefined when it was not tracked that week. */
export async function startupInPeriod(
  snapshot: Snapshot,
  login: string,
  slug: string | undefined,
): Promise<{ info: PeriodInfo; current: boolean; startup: PeriodStartup | undefined }> {
  const info = periodInfo(snapshot, slug);
  if (info.slug === snapshot.period.slug) {
    const own = snapshot.byLogin.get(login.toLowerCase());
    return { info, current: true, startup: own ? periodStartupOf(info.slug, own) : undefined };
  }
  const week = (await startupHistory(snapshot, login)).find((r) => r.period === info.slug);
  return { info, current: false, startup: week };
}

/** One startup's stored weeks, oldest first (the most recent `limit` of them when given). */
export async function history(snapshot: Snapshot, login: string, limit?: number): Promise<HistoryEntry[]> {
  const rows = await startupHistory(snapshot, login);
  return limit === undefined ? rows : rows.slice(-limit);
}

/** One name of a comparison: how it resolved (strictly: exact name, slug or alias), and its figures that week. */
export interface Compared {
  query: string;
  match: StrictLookup;
  /** The startup in the period compared; undefined for a miss or a startup not tracked that week. */
  entry: PeriodStartup | undefined;
}

export interface Comparison {
  info: PeriodInfo;
  /** One per name asked, in the order asked. */
  compared: Compared[];
  /** The found startup with the highest composite score (the first of equals); only with two found or more. */
  leader: PeriodStartup | undefined;
}

/** Startups side by side in a stored period (the current one when `slug` is absent), and the leader. */
export async function compareStartups(
  snapshot: Snapshot,
  names: readonly string[],
  slug: string | undefined,
): Promise<Comparison> {
  const view = await periodView(snapshot, slug);
  const byLogin = new Map(view.startups.map((s) => [s.login, s]));
  const compared = names.map((query) => {
    const match = resolveStrict(snapshot, query);
    return { query, match, entry: match.item ? byLogin.get(match.item.login) : undefined };
  });
  const hits = compared.flatMap((c) => (c.entry ? [c.entry] : []));
  const leader = hits.length >= 2 ? hits.reduce((a, b) => (b.compositeScore > a.compositeScore ? b : a)) : undefined;
  return { info: view.info, compared, leader };
}

/** The stored periods, newest first (the first `limit` of them when given), and the current one. */
export function storedPeriods(
  snapshot: Snapshot,
  limit?: number,
): { current: PeriodInfo; total: number; periods: PeriodInfo[] } {
  const newestFirst = [...snapshot.periods].reverse();
  return {
    current: snapshot.period,
    total: newestFirst.length,
    periods: newestFirst.slice(0, limit ?? newestFirst.length),
  };
}
