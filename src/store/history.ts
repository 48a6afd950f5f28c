import { stageSourceOf, type StageSource } from '../domain/stage-source.js';
import type { Kysely } from 'kysely';
import { TRENDING_SIZE } from '../domain/rules.js';
import { signalLabel, type SignalLabel } from '../domain/signal-label.js';
import type { SignalEvidence } from '../domain/records.js';
import type { SectorSlug } from '../schemas/enums.js';
import { canonicalStartup, type Startup } from '../schemas/signals.js';
import type { Database } from './schema.js';

/** One startup in one period's trending list. */
export interface TrendingRow {
  period: string;
  login: string;
  rank: number;
  sector: SectorSlug;
  startup: Startup;
  /** The strength of and evidence for its signal type, read from the metrics stored with it. */
  label: SignalLabel;
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
      'period_startups.metrics',
    ])
    .where('period_startups.rank_overall', 'is not', null)
    .where('period_startups.rank_overall', '<=', maxRank)
    .orderBy('periods.iso_year')
    .orderBy('periods.iso_week')
    .orderBy('period_startups.rank_overall')
    .execute();
  return rows.map((r) => {
    const startup = canonicalStartup(r.startup);
    return {
      period: r.period_slug,
      login: r.org_login,
      rank: r.rank_overall!,
      sector: r.sector as SectorSlug,
      startup,
      label: signalLabel(startup.signalType, r.metrics as Record<string, unknown>),
    };
  });
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
  /** The strength of and evidence for its signal type that period, read from the metrics stored with it. */
  label: SignalLabel;
  /** The classifier's evidence per type that period, when the rule of that week recorded it. */
  evidence?: SignalEvidence | undefined;
  /** How that period's stage is known (see domain/stage-source.ts). */
  stageSource: StageSource;
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
      'period_startups.metrics',
    ])
    .where('period_startups.org_login', '=', login)
    .orderBy('periods.iso_year')
    .orderBy('periods.iso_week')
    .execute();
  return rows.map((r) => {
    const startup = canonicalStartup(r.startup);
    return {
      period: r.period_slug,
      periodName: r.name,
      sector: r.sector as SectorSlug,
      rankOverall: r.rank_overall,
      rankInSector: r.rank_in_sector,
      compositeScore: r.score_composite,
      startup,
      label: signalLabel(startup.signalType, r.metrics as Record<string, unknown>),
      evidence: (r.metrics as Record<string, unknown> | null)?.['signalEvidence'] as SignalEvidence | undefined,
      stageSource: stageSourceOf(r.metrics as Record<string, unknown> | undefined),
    };
  });
}
