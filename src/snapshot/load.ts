import { evidenceDetails } from '../domain/evidence-links.js';
import { stageSourceOf } from '../domain/stage-source.js';
import type { Kysely } from 'kysely';
import type { SectorSlug } from '../schemas/enums.js';
import { isSyntheticDataset } from '../domain/datasets.js';
import { signalLabel } from '../domain/signal-label.js';
import { storedCollection } from '../domain/collection.js';
import { canonicalStartup, type DatasetRecord } from '../schemas/signals.js';
import { loadPeriodStartups, loadStartupHistory, loadTrendingHistory } from '../store/history.js';
import { iterateAllPeriodStartups, listPeriods, periodStartups } from '../store/periods.js';
import { loadSeries } from '../store/series.js';
import type { Database, PeriodRow, PeriodStartupRow } from '../store/schema.js';
import { snapshotSteps, type PeriodInfo, type PeriodSource, type Snapshot, type SnapshotInput } from './snapshot.js';
import { inChunks, inTurns, type Steps } from './steps.js';

export function periodInfo(row: PeriodRow): PeriodInfo {
  return {
    slug: row.slug,
    name: row.name,
    dataset: row.dataset,
    datasetName: row.dataset_name,
    publishedAt: new Date(row.published_at),
    contentHash: row.content_hash,
    startupsTracked: row.startups_tracked,
  };
}

/**
 * Reads the newest stored period into a snapshot; undefined while the store holds no period. The rows are checked
 * and the snapshot built in steps, one per turn of the event loop (at 100,000 startups they are seconds of work,
 * during which a serving process answers from the period it has).
 */
export async function loadSnapshot(db: Kysely<Database>, baseUrl: string): Promise<Snapshot | undefined> {
  const rows = await listPeriods(db);
  const latest = rows.at(-1);
  if (!latest) return undefined;
  const stored = await periodStartups(db, latest.slug);
  return inTurns(storedSnapshot(db, baseUrl, rows, stored));
}

/** The snapshot of the newest of `periods` from its stored rows, in steps. */
function* storedSnapshot(
  db: Kysely<Database>,
  baseUrl: string,
  periods: PeriodRow[],
  stored: PeriodStartupRow[],
): Steps<Snapshot> {
  const startups: SnapshotInput['startups'] = [];
  yield* inChunks(stored, ROW_CHUNK, (r) => startups.push(snapshotStartupOf(r)));
  return yield* snapshotSteps({
    baseUrl,
    source: storeSource(db),
    period: periodInfo(periods.at(-1)!),
    periods: periods.map(periodInfo),
    startups,
  });
}

/** Stored rows checked per step. */
const ROW_CHUNK = 2_000;

function snapshotStartupOf(r: PeriodStartupRow): SnapshotInput['startups'][number] {
  return {
    login: r.org_login,
    sector: r.sector as SectorSlug,
    startup: canonicalStartup(r.startup),
    scores: {
      velocity: r.score_velocity,
      growth: r.score_growth,
      novelty: r.score_novelty,
      composite: r.score_composite,
    },
    eligible: r.eligible,
    rankOverall: r.rank_overall,
    rankInSector: r.rank_in_sector,
    metrics: r.metrics as Record<string, unknown>,
    collection: storedCollection(r.collection, r.collection_note),
  };
}

/** The stored history behind a period loaded from `db`. */
export function storeSource(db: Kysely<Database>): PeriodSource {
  return {
    trendingHistory: () => loadTrendingHistory(db),
    startupHistory: (login) => loadStartupHistory(db, login),
    series: () => loadSeries(db),
    periodStartups: (slug) => loadPeriodStartups(db, slug),
    async *datasetPages(slugs) {
      for await (const { period, rows } of iterateAllPeriodStartups(db, 1000, slugs))
        yield rows.map((row): DatasetRecord => {
          const startup = canonicalStartup(row.startup);
          return {
            period: period.slug,
            periodName: period.name,
            org: row.org_login,
            sector: row.sector as SectorSlug,
            rank: row.rank_overall,
            sectorRank: row.rank_in_sector,
            compositeScore: row.score_composite,
            synthetic: isSyntheticDataset(period.dataset),
            ...startup,
            ...signalLabel(startup.signalType, row.metrics as Record<string, unknown>),
            ...storedCollection(row.collection, row.collection_note),
            stageSource: stageSourceOf(row.metrics as Record<string, unknown>),
            evidenceDetails: evidenceDetails(startup.githubUrl, row.metrics as Record<string, unknown>),
          };
        });
    },
  };
}
