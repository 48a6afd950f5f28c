import { SYNTHETIC_DATASET } from '../domain/datasets.js';
import type { PeriodRef } from '../domain/periods.js';
import { recordMetrics } from '../domain/records.js';
import { collectionFromNote } from '../domain/collection.js';
import { buildSnapshot, memorySource, type MemoryPeriod, type PeriodInfo, type Snapshot } from './snapshot.js';
import { DEMO_DATASET_NAME, type DemoDataset } from '../pipeline/demo/generate.js';

export interface DatasetSnapshotOptions {
  baseUrl: string;
  /** Each period's content hash is `${hashPrefix}-${index}`. */
  hashPrefix: string;
  /** The dataset kind the periods claim (tests of real-data behaviour use `github`). */
  dataset?: PeriodInfo['dataset'];
  /**
   * When each period was published; by default weekly from 2026-01-05. Tests that stand in for the stored demo data
   * pass the demo seed's rule (the Monday after the week, 06:00 UTC).
   */
  publishedAt?: (period: PeriodRef, index: number) => Date;
}

/**
 * A generated dataset as the snapshot the server would load after publishing it, built in memory (no database): its
 * periods as stored period records (published weekly from 2026-01-05 unless told otherwise), the latest period's ranked startups, and every
 * week as its stored history (an in-memory source). For evaluation sets, benchmarks and tests of everything computed from a snapshot.
 */
export function datasetSnapshot(
  generated: DemoDataset,
  options: DatasetSnapshotOptions,
): { snapshot: Snapshot; periods: PeriodInfo[] } {
  const periods: PeriodInfo[] = generated.periods.map(({ period, ranked }, i) => ({
    slug: period.slug,
    name: period.name,
    dataset: options.dataset ?? SYNTHETIC_DATASET,
    datasetName: DEMO_DATASET_NAME,
    publishedAt: options.publishedAt?.(period, i) ?? new Date(Date.UTC(2026, 0, 5 + 7 * i, 6)),
    contentHash: `${options.hashPrefix}-${i}`,
    startupsTracked: ranked.startups.length,
  }));
  // Every generated week, as the store would hold it after publishing them all: the snapshot's history.
  const stored: MemoryPeriod[] = generated.periods.map(({ ranked }, i) => ({
    info: periods[i]!,
    startups: ranked.startups.map((s) => ({
      login: s.login,
      sector: s.sector,
      startup: s.startup,
      scores: s.scores,
      eligible: s.eligible,
      rankOverall: s.rankOverall,
      rankInSector: s.rankInSector,
      metrics: recordMetrics(s),
      collection: collectionFromNote(s.collectionNote),
    })),
  }));
  const snapshot = buildSnapshot({
    baseUrl: options.baseUrl,
    period: periods.at(-1)!,
    periods,
    startups: stored.at(-1)!.startups.slice(),
    source: memorySource(stored),
  });
  return { snapshot, periods };
}
