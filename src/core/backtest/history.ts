import { sql, type Kysely } from 'kysely';
import type { SignalEvidence } from '../../domain/records.js';
import { signalLabel } from '../../domain/signal-label.js';
import type { SignalType } from '../../schemas/enums.js';
import { periodStartupPages } from '../../store/periods.js';
import type { Database } from '../../store/schema.js';
import type { BacktestRow, BacktestWeek } from './engine.js';

/** The stored weeks a backtest reads, with the datasets they come from. */
export interface BacktestHistory {
  weeks: BacktestWeek[];
  datasets: string[];
  datasetNames: string[];
}

/** Rows per query, as the other readers of every period use. */
const PAGE = 5_000;

/**
 * Every stored week, oldest first, each startup as it was published that week: composite score, signal type and the
 * strength and per-type scores stored with it, commits and contributors. Nothing is recomputed: a week is read as
 * it was visible at its end.
 */
export async function loadBacktestHistory(db: Kysely<Database>): Promise<BacktestHistory> {
  const weeks: BacktestWeek[] = [];
  const datasets = new Set<string>();
  const datasetNames = new Set<string>();
  const columns = (from: Parameters<Parameters<typeof periodStartupPages>[1]>[0]) =>
    from.select([
      'position',
      'org_login as login',
      'score_composite as composite',
      sql<number>`(startup->>'commitVelocity14d')::int`.as('commits'),
      sql<number>`(startup->>'contributors')::int`.as('contributors'),
      sql<SignalType>`startup->>'signalType'`.as('signalType'),
      'metrics',
    ]);
  for await (const { period, rows } of periodStartupPages(db, columns, PAGE)) {
    let week = weeks.at(-1);
    if (week?.slug !== period.slug) {
      week = { slug: period.slug, endsOn: period.ends_on, rows: [] };
      weeks.push(week);
      datasets.add(period.dataset);
      datasetNames.add(period.dataset_name);
    }
    const out = week.rows as BacktestRow[];
    for (const row of rows) {
      const metrics = (row.metrics ?? {}) as Record<string, unknown>;
      const evidence = metrics['signalEvidence'] as SignalEvidence | undefined;
      out.push({
        login: row.login,
        composite: row.composite,
        commits: row.commits,
        contributors: row.contributors,
        signalType: row.signalType,
        signalStrength: signalLabel(row.signalType, metrics).signalStrength,
        typeScores: evidence?.scores,
      });
    }
  }
  return { weeks, datasets: [...datasets], datasetNames: [...datasetNames] };
}
