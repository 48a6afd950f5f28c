import { SYNTHETIC_DATASET } from '../domain/datasets.js';
import { shiftPeriod, type PeriodRef } from '../domain/periods.js';
import { recordMetrics, type RankedPeriod } from '../domain/records.js';
import { collectionFromNote } from '../domain/collection.js';
import {
  buildSnapshot,
  deferredSource,
  memorySource,
  type MemoryPeriod,
  type PeriodInfo,
  type PeriodSource,
  type Snapshot,
} from './snapshot.js';
import { DEMO_DATASET_NAME, type DemoDataset, type DemoLatestWeek } from '../pipeline/demo/generate.js';
import { demoPublishedAt, generatorOptions, type SeedOptions } from '../pipeline/demo/seed.js';
import { periodContentHash } from '../store/periods.js';

export interface DatasetSnapshotOptions {
  baseUrl: string;
  /** Each period's content hash is `${hashPrefix}-${index}`, unless `contentHash` is given. */
  hashPrefix: string;
  /** The content hash of each period: the one the store publishes it with, for a snapshot standing in for it. */
  contentHash?: (ranked: RankedPeriod) => string;
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
  const periods = generatedPeriods(generated, options);
  const stored = generatedHistory(generated, periods);
  const snapshot = buildSnapshot({
    baseUrl: options.baseUrl,
    period: periods.at(-1)!,
    periods,
    startups: stored.at(-1)!.startups.slice(),
    source: memorySource(stored),
  });
  return { snapshot, periods };
}

/** The stored period records of a generated dataset's weeks. */
export function generatedPeriods(
  generated: Pick<DemoDataset, 'periods'>,
  options: Omit<DatasetSnapshotOptions, 'baseUrl'>,
): PeriodInfo[] {
  return generated.periods.map(({ period, ranked }, i) => ({
    slug: period.slug,
    name: period.name,
    dataset: options.dataset ?? SYNTHETIC_DATASET,
    datasetName: DEMO_DATASET_NAME,
    publishedAt: options.publishedAt?.(period, i) ?? new Date(Date.UTC(2026, 0, 5 + 7 * i, 6)),
    contentHash: options.contentHash?.(ranked) ?? `${options.hashPrefix}-${i}`,
    startupsTracked: ranked.startups.length,
  }));
}

/** A ranked week's startups as a snapshot holds them. */
export function generatedStartups(ranked: RankedPeriod): MemoryPeriod['startups'] {
  return ranked.startups.map((s) => ({
    login: s.login,
    sector: s.sector,
    startup: s.startup,
    scores: s.scores,
    eligible: s.eligible,
    rankOverall: s.rankOverall,
    rankInSector: s.rankInSector,
    metrics: recordMetrics(s),
    collection: collectionFromNote(s.collectionNote),
  }));
}

/** Every generated week, as the store would hold it after publishing them all: a snapshot's history. */
function generatedHistory(generated: Pick<DemoDataset, 'periods'>, periods: readonly PeriodInfo[]): MemoryPeriod[] {
  return generated.periods.map(({ ranked }, i) => ({ info: periods[i]!, startups: generatedStartups(ranked) }));
}

/** The history source of a generated dataset whose weeks are stored as `periods`. */
export function generatedSource(generated: Pick<DemoDataset, 'periods'>, periods: readonly PeriodInfo[]): PeriodSource {
  return memorySource(generatedHistory(generated, periods));
}

/** Content hash of a demo week not stored yet (a first start's earlier weeks, while they are generated). */
const NOT_YET_STORED = 'not-yet-stored';

/**
 * The snapshot a first start serves before the demo is stored: the newest week as the store will hold it (its
 * publication time and content hash), and the weeks before it, whose reads wait for `history`.
 */
export function latestDemoSnapshot(
  generated: DemoLatestWeek,
  options: SeedOptions,
  baseUrl: string,
  history: Promise<PeriodSource>,
): Snapshot {
  const { periods: count, endPeriod } = generatorOptions(options);
  const { latest } = generated;
  const weeks = Array.from({ length: count }, (_, i) => ({
    period: shiftPeriod(endPeriod, i - count + 1),
    ranked: latest.ranked,
  }));
  // Only the newest week's records are known: its hash is the store's, the others' say they are not stored yet.
  const periods = generatedPeriods({ periods: weeks }, { ...DEMO_STORED, contentHash: () => NOT_YET_STORED });
  periods[count - 1] = { ...periods[count - 1]!, contentHash: DEMO_STORED.contentHash(latest.ranked) };
  return buildSnapshot({
    baseUrl,
    period: periods.at(-1)!,
    periods,
    startups: generatedStartups(latest.ranked).slice(),
    source: deferredSource(history),
  });
}

/** The history of a generated demo dataset as the store holds it once stored (for reads before it is). */
export function demoHistory(dataset: DemoDataset): PeriodSource {
  return generatedSource(dataset, generatedPeriods(dataset, DEMO_STORED));
}

/** How the demo's weeks are stored: synthetic, published the Monday after, with the store's content hashes. */
const DEMO_STORED = {
  hashPrefix: 'demo',
  dataset: SYNTHETIC_DATASET,
  publishedAt: (period: PeriodRef) => demoPublishedAt(period),
  contentHash: (ranked: RankedPeriod) => periodContentHash(SYNTHETIC_DATASET, ranked),
};
