import { evidenceDetails } from '../domain/evidence-links.js';
import { stageSourceOf } from '../domain/stage-source.js';
import { createHash, type Hash } from 'node:crypto';
import { isSyntheticDataset } from '../domain/datasets.js';
import { signalLabel } from '../domain/signal-label.js';
import { DATA_LICENSE } from '../domain/license.js';
import { NameMatcher } from '../domain/matcher.js';
import { sectors } from '../domain/sectors.js';
import { siteUrls } from '../domain/urls.js';
import type { SectorSlug } from '../schemas/enums.js';
import type { DatasetRecord, Meta, Sector, SignalsResponse, Startup } from '../schemas/signals.js';
import type { Scores, SignalEvidence } from '../domain/records.js';
import type { HistoryEntry, PeriodStartup } from '../domain/period-startup.js';
import { SeriesTable } from '../domain/series.js';
import { TRENDING_SIZE } from '../domain/rules.js';
import { renderSignalsCsvInSteps } from './csv.js';
import { drain, inChunks, SteppedBuild, type Steps } from './steps.js';
import { collectionOf, type CollectionFacts } from '../domain/collection.js';

/**
 * The shape of the dataset export's lines, mixed into its ETag: a release that adds a field to every line (such as
 * the collection facts) changes the body of unchanged periods, so their cached copies must not validate.
 */
const DATASET_FORMAT = 3;

/** A body rendered once per snapshot, with its strong validator. */
export interface Rendered {
  body: Buffer;
  etag: string;
  contentType: string;
}

export interface SnapshotStartup {
  login: string;
  sector: SectorSlug;
  startup: Startup;
  scores: Scores;
  eligible: boolean;
  rankOverall: number | null;
  rankInSector: number;
  /** Window counts behind the published figures (commitsPrior, contributorsPrior, …). */
  metrics: Record<string, unknown>;
  /** Whether its collection was complete that week; absent (a snapshot built in memory from generated data): complete. */
  collection?: CollectionFacts | undefined;
  /**
   * The Startup record serialised, as /api/signal answers a hit: rendered at the first hit (startupJson), not for
   * every startup at start (at 10,000 startups that was about 40 ms of the start and 9 MB held for records that
   * may never be asked for).
   */
  json: Rendered | undefined;
}

export interface PeriodInfo {
  slug: string;
  name: string;
  dataset: string;
  datasetName: string;
  publishedAt: Date;
  contentHash: string;
  startupsTracked: number;
}

/** Everything the server answers free reads from: the current period, its indexes and its pre-rendered bodies. */
export interface Snapshot {
  period: PeriodInfo;
  /** All stored periods, oldest first (for the changelog, the dataset export and history). */
  periods: PeriodInfo[];
  synthetic: boolean;
  meta: Meta;
  startups: SnapshotStartup[];
  byLogin: Map<string, SnapshotStartup>;
  bySector: Map<SectorSlug, SnapshotStartup[]>;
  trending: SnapshotStartup[];
  matcher: NameMatcher<SnapshotStartup>;
  /** The 15 sector rankings exactly as /api/signals.json serves them (the body below is their serialisation). */
  sectors: Sector[];
  signalsJson: Rendered;
  /** Strong validator of /api/dataset.jsonl: the export is a deterministic function of the stored periods. */
  datasetEtag: string;
  /** Changes whenever any stored period changes. */
  fingerprint: string;
  /** The stored history behind this period (earlier periods' rows), read on demand through `snapshot/history.ts`. */
  source: PeriodSource;
  /**
   * Everything derived from this period — indexes, pre-rendered bodies, history, series, caches — keyed by the
   * derivation that built it (`derive` and its variants). It is the only place per-period state lives: it goes with
   * the snapshot when a newer period is swapped in, so no module keeps a cache of its own.
   */
  derived: Map<object, unknown>;
}

/**
 * Reads of the store a period needs beyond its own rows: every period's trending list, one startup's weeks over the
 * stored periods, every startup's chart series, one earlier period's startups. Each answers domain values
 * (`PeriodStartup`, `HistoryEntry`), never rows. Unfiltered: `snapshot/history.ts` limits them to the periods the
 * snapshot knows and keeps each read once per snapshot.
 */
export interface PeriodSource {
  /** Every period's top TRENDING_SIZE, oldest period first, each in rank order. */
  trendingHistory(): Promise<PeriodStartup[]>;
  startupHistory(login: string): Promise<HistoryEntry[]>;
  series(): Promise<SeriesTable>;
  /** Every startup of one stored period, in its stored order ([] when that period is not stored). */
  periodStartups(slug: string): Promise<PeriodStartup[]>;
  /** The dataset export's records of the named periods, oldest period first, a page at a time. */
  datasetPages(slugs: readonly string[]): AsyncIterable<DatasetRecord[]>;
}

export interface SnapshotInput {
  baseUrl: string;
  period: PeriodInfo;
  periods: PeriodInfo[];
  startups: Omit<SnapshotStartup, 'json'>[];
  /** Where earlier periods are read from; absent (a snapshot built in memory): the period knows only itself. */
  source?: PeriodSource;
}

export function strongEtag(body: Buffer | string): string {
  return etagOf(createHash('sha256').update(body));
}

/** A strong validator from the SHA-256 of a body (`strongEtag`), fed in one piece or several. */
function etagOf(hash: Hash): string {
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

export function rendered(body: Buffer | string, contentType: string): Rendered {
  const buffer = typeof body === 'string' ? Buffer.from(body) : body;
  return { body: buffer, etag: strongEtag(buffer), contentType };
}

export function periodsFingerprint(periods: readonly PeriodInfo[]): string {
  return createHash('sha256')
    .update(periods.map((p) => `${p.slug}:${p.contentHash}:${p.publishedAt.toISOString()}`).join('\n'))
    .digest('hex');
}

export function citationFor(baseUrl: string, period: PeriodInfo, synthetic: boolean): string {
  const year = period.slug.slice(0, 4);
  const base = `Signal Service (${year}). Startup engineering-acceleration signals, ${period.name} (${period.slug}). ${baseUrl}/api/signals.json. Licensed ${DATA_LICENSE.name} (${DATA_LICENSE.url}); attribution required.`;
  return synthetic
    ? `${base} SYNTHETIC DEMO DATA: fictional startups with generated activity, not real companies or real GitHub data.`
    : base;
}

export function metaName(synthetic: boolean): string {
  return synthetic
    ? 'Signal Service: startup engineering-acceleration signals (SYNTHETIC DEMO DATA, fictional startups)'
    : 'Signal Service: startup engineering-acceleration signals';
}

export function buildSnapshot(input: SnapshotInput): Snapshot {
  return drain(snapshotSteps(input));
}

/** Startups handled per step when a snapshot is built in steps. */
const SNAPSHOT_CHUNK = 5_000;

/**
 * The snapshot built in steps (see steps.ts): at 100,000 startups its name matcher, the serialised rankings (50 MB)
 * and their hash are seconds of work, which a period swap must not do in one turn of a serving process's event loop.
 */
export function* snapshotSteps(input: SnapshotInput): Steps<Snapshot> {
  const { baseUrl, period } = input;
  const synthetic = isSyntheticDataset(period.dataset);
  const startups: SnapshotStartup[] = [];
  yield* inChunks(input.startups, SNAPSHOT_CHUNK, (s) => startups.push({ ...s, json: undefined }));
  const bySector = new Map<SectorSlug, SnapshotStartup[]>(sectors.map((s) => [s.slug, []]));
  for (const s of startups) bySector.get(s.sector)?.push(s);
  for (const list of bySector.values()) list.sort((a, b) => a.rankInSector - b.rankInSector);
  yield;
  const trending = startups
    .filter((s) => s.rankOverall !== null)
    .sort((a, b) => a.rankOverall! - b.rankOverall!)
    .slice(0, TRENDING_SIZE);
  const byLogin = new Map(startups.map((s) => [s.login.toLowerCase(), s]));
  yield;

  const urls = siteUrls(baseUrl);
  const meta: Meta = {
    name: metaName(synthetic),
    period: { slug: period.slug, name: period.name },
    totalSectors: sectors.length,
    totalStartups: startups.length,
    lastUpdated: period.publishedAt.toISOString(),
    citation: citationFor(baseUrl, period, synthetic),
  };
  const response: SignalsResponse = {
    meta,
    trending: trending.map((s) => s.startup),
    sectors: sectors.map((info) => {
      const list = bySector.get(info.slug)!;
      return {
        name: info.name,
        slug: info.slug,
        description: info.description,
        url: urls.sector(info.slug),
        startupCount: list.length,
        startups: list.map((s) => s.startup),
      };
    }),
  };
  const signalsJson = yield* renderedInSteps(response, 'application/json; charset=utf-8');
  const matcher = yield* NameMatcher.build(startups, (s) => ({ name: s.startup.name, slug: s.login }));
  const fingerprint = periodsFingerprint(input.periods);
  return {
    period,
    periods: input.periods,
    synthetic,
    meta,
    startups,
    byLogin,
    bySector,
    trending,
    matcher,
    sectors: response.sectors,
    signalsJson,
    datasetEtag: strongEtag(`dataset-format-${DATASET_FORMAT}:${fingerprint}`),
    fingerprint,
    source: input.source ?? memorySource([{ info: period, startups }]),
    derived: new Map(),
  };
}

/**
 * The rankings response serialised and hashed a sector at a time: the same bytes as `JSON.stringify(response)`
 * (the keys in the same order, the sectors joined by commas) and the same validator as `rendered` gives them.
 */
function* renderedInSteps(response: SignalsResponse, contentType: string): Steps<Rendered> {
  const { sectors: list, ...head } = response;
  const opening = JSON.stringify(head);
  const parts: Buffer[] = [Buffer.from(`${opening.slice(0, -1)},"sectors":[`)];
  for (const [i, sector] of list.entries()) {
    parts.push(Buffer.from((i > 0 ? ',' : '') + JSON.stringify(sector)));
    yield;
  }
  parts.push(Buffer.from(']}'));
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part);
    if (part.length > 1 << 20) yield;
  }
  return { body: Buffer.concat(parts), etag: etagOf(hash), contentType };
}

/** A startup a snapshot holds (its own period's, or an earlier one held in memory) as the one domain value of a startup in a period. */
export function periodStartupOf(period: string, s: Omit<SnapshotStartup, 'json'>): PeriodStartup {
  return {
    period,
    login: s.login,
    sector: s.sector,
    rankOverall: s.rankOverall,
    rankInSector: s.rankInSector,
    compositeScore: s.scores.composite,
    startup: s.startup,
    label: signalLabel(s.startup.signalType, s.metrics),
    evidence: s.metrics['signalEvidence'] as SignalEvidence | undefined,
    stageSource: stageSourceOf(s.metrics),
    evidenceDetails: evidenceDetails(s.startup.githubUrl, s.metrics),
  };
}

/** One stored period's startups as a source built in memory holds them. */
export interface MemoryPeriod {
  info: PeriodInfo;
  startups: readonly Omit<SnapshotStartup, 'json'>[];
}

/**
 * A source over periods held in memory, oldest first (a snapshot built without a store: tests, benchmarks, the
 * evaluation harness). Without a list of earlier periods, a period's history is its own rows.
 */
export function memorySource(periods: readonly MemoryPeriod[]): PeriodSource {
  const bySlug = new Map(periods.map((p) => [p.info.slug, p]));
  return {
    trendingHistory: async () =>
      periods.flatMap(({ info, startups }) =>
        startups
          .filter((s) => s.rankOverall !== null && s.rankOverall <= TRENDING_SIZE)
          .sort((a, b) => a.rankOverall! - b.rankOverall!)
          .map((s) => periodStartupOf(info.slug, s)),
      ),
    startupHistory: async (login) =>
      periods.flatMap(({ info, startups }) =>
        startups
          .filter((s) => s.login === login)
          .map((s) => ({ ...periodStartupOf(info.slug, s), periodName: info.name })),
      ),
    series: async () => {
      const series = SeriesTable.builder();
      for (const { info, startups } of periods)
        for (const s of startups)
          series.add(s.login, info.slug, s.startup.commitVelocity14d, s.startup.contributors, s.rankOverall);
      return series.finish();
    },
    periodStartups: async (slug) => {
      const held = bySlug.get(slug);
      return held ? held.startups.map((s) => periodStartupOf(held.info.slug, s)) : [];
    },
    async *datasetPages(slugs) {
      for (const { info, startups } of periods) {
        if (!slugs.includes(info.slug)) continue;
        yield startups.map((s) => ({
          period: info.slug,
          periodName: info.name,
          org: s.login,
          sector: s.sector,
          rank: s.rankOverall,
          sectorRank: s.rankInSector,
          compositeScore: s.scores.composite,
          synthetic: isSyntheticDataset(info.dataset),
          ...s.startup,
          ...signalLabel(s.startup.signalType, s.metrics),
          ...collectionOf(s),
          stageSource: stageSourceOf(s.metrics),
          evidenceDetails: evidenceDetails(s.startup.githubUrl, s.metrics),
        }));
      }
    },
  };
}

/**
 * A source whose reads wait for the source `later` gives (a first start's earlier weeks, generated behind the
 * newest one): each read waits for it, then is answered by it.
 */
export function deferredSource(later: Promise<PeriodSource>): PeriodSource {
  return {
    trendingHistory: async () => (await later).trendingHistory(),
    startupHistory: async (login) => (await later).startupHistory(login),
    series: async () => (await later).series(),
    periodStartups: async (slug) => (await later).periodStartups(slug),
    async *datasetPages(slugs) {
      yield* (await later).datasetPages(slugs);
    },
  };
}

/** The startup's record as /api/signal answers it, rendered at its first use and kept with the snapshot. */
export function startupJson(startup: SnapshotStartup): Rendered {
  return (startup.json ??= rendered(JSON.stringify(startup.startup), 'application/json; charset=utf-8'));
}

/**
 * Declares a value derived from a period (a search index, an answer corpus, a page cache): built once per snapshot
 * at its first read and kept in the snapshot's own `derived` map, so it is dropped with the snapshot. The returned
 * function holds no state; it is the value's key.
 */
export function derive<T>(build: (snapshot: Snapshot) => T): (snapshot: Snapshot) => T {
  const read = (snapshot: Snapshot): T => {
    if (snapshot.derived.has(read)) return snapshot.derived.get(read) as T;
    const value = build(snapshot);
    snapshot.derived.set(read, value);
    return value;
  };
  return read;
}

/** A per-period value built in steps: read it (finishing any build under way), or `warm` it in the background. */
export interface SteppedDerived<T> {
  (snapshot: Snapshot): T;
  /**
   * The build as steps, for a background warm-up: each `next()` does one chunk. It shares the build with a read: a
   * request that needs the value before the warm-up is done finishes the remaining steps itself.
   */
  warm(snapshot: Snapshot): Steps<T>;
}

/** `derive` for a value built in steps (see steps.ts), kept in the snapshot's `derived` map under the function. */
export function deriveInSteps<T>(build: (snapshot: Snapshot) => Steps<T>): SteppedDerived<T> {
  const buildOf = (snapshot: Snapshot): SteppedBuild<T> => {
    let one = snapshot.derived.get(read) as SteppedBuild<T> | undefined;
    if (!one) snapshot.derived.set(read, (one = new SteppedBuild(() => build(snapshot))));
    return one;
  };
  const read = (snapshot: Snapshot): T => buildOf(snapshot).get();
  read.warm = (snapshot: Snapshot): Steps<T> => buildOf(snapshot).warm();
  return read;
}

/**
 * /api/signals.csv's body, rendered once per snapshot: by the warm-up right after the server listens (see
 * periodWarmUps in app.ts), in steps of a few thousand rows, or at once by the first request if that comes sooner.
 * At 100,000 startups the whole file is about 4 s of work, which requests no longer wait behind.
 */
export const signalsCsv = deriveInSteps(function* (snapshot): Steps<Rendered> {
  const trendingRank = new Map(snapshot.trending.map((s, i) => [s.login, i + 1]));
  const pieces = yield* renderSignalsCsvInSteps(
    snapshot.period.slug,
    snapshot.bySector,
    trendingRank,
    snapshot.synthetic,
  );
  const body = Buffer.from(pieces.join(''));
  yield;
  return rendered(body, 'text/csv; charset=utf-8; header=present');
});
