import { evidenceDetails } from '../domain/evidence-links.js';
import { stageSourceOf } from '../domain/stage-source.js';
import type { Kysely } from 'kysely';
import { TRENDING_SIZE } from '../domain/rules.js';
import { signalLabel } from '../domain/signal-label.js';
import type { HistoryEntry, PeriodStartup } from '../domain/period-startup.js';
import type { SignalEvidence } from '../domain/records.js';
import type { SectorSlug } from '../schemas/enums.js';
import { canonicalStartup } from '../schemas/signals.js';
import type { Database, PeriodStartupRow } from './schema.js';

/** The columns of `period_startups` a PeriodStartup is read from. */
const PERIOD_STARTUP_COLUMNS = [
  'period_startups.period_slug',
  'period_startups.org_login',
  'period_startups.sector',
  'period_startups.rank_overall',
  'period_startups.rank_in_sector',
  'period_startups.score_composite',
  'period_startups.startup',
  'period_startups.metrics',
] as const;

type PeriodStartupColumns = Pick<
  PeriodStartupRow,
  'period_slug' | 'org_login' | 'sector' | 'rank_overall' | 'rank_in_sector' | 'score_composite' | 'startup' | 'metrics'
>;

/** A stored row as the one domain value of a startup in a period: the only place its columns are read. */
export function periodStartupOf(r: PeriodStartupColumns): PeriodStartup {
  const startup = canonicalStartup(r.startup);
  const metrics = r.metrics as Record<string, unknown> | null;
  return {
    period: r.period_slug,
    login: r.org_login,
    sector: r.sector as SectorSlug,
    rankOverall: r.rank_overall,
    rankInSector: r.rank_in_sector,
    compositeScore: r.score_composite,
    startup,
    label: signalLabel(startup.signalType, metrics ?? undefined),
    evidence: metrics?.['signalEvidence'] as SignalEvidence | undefined,
    stageSource: stageSourceOf(metrics ?? undefined),
    evidenceDetails: evidenceDetails(startup.githubUrl, metrics ?? undefined),
  };
}

/** Every period's trending list (rank ≤ maxRank), oldest period first, each in rank order. */
export async function loadTrendingHistory(db: Kysely<Database>, maxRank = TRENDING_SIZE): Promise<PeriodStartup[]> {
  const rows = await db
    .selectFrom('period_startups')
    .innerJoin('periods', 'periods.slug', 'period_startups.period_slug')
    .select(PERIOD_STARTUP_COLUMNS)
    .where('period_startups.rank_overall', 'is not', null)
    .where('period_startups.rank_overall', '<=', maxRank)
    .orderBy('periods.iso_year')
    .orderBy('periods.iso_week')
    .orderBy('period_startups.rank_overall')
    .execute();
  return rows.map(periodStartupOf);
}

/** Every stored period one organisation appears in, oldest first. */
export async function loadStartupHistory(db: Kysely<Database>, login: string): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom('period_startups')
    .innerJoin('periods', 'periods.slug', 'period_startups.period_slug')
    .select([...PERIOD_STARTUP_COLUMNS, 'periods.name'])
    .where('period_startups.org_login', '=', login)
    .orderBy('periods.iso_year')
    .orderBy('periods.iso_week')
    .execute();
  return rows.map((r) => ({ ...periodStartupOf(r), periodName: r.name }));
}

/** Every startup of one stored period, in its stored order ([] when that period is not stored). */
export async function loadPeriodStartups(db: Kysely<Database>, slug: string): Promise<PeriodStartup[]> {
  const rows = await db
    .selectFrom('period_startups')
    .select(PERIOD_STARTUP_COLUMNS)
    .where('period_startups.period_slug', '=', slug)
    .orderBy('period_startups.position')
    .execute();
  return rows.map(periodStartupOf);
}
