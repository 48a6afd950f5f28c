import { createHash } from 'node:crypto';
import { DATA_LICENSE } from '../domain/license.js';
import { NameMatcher } from '../domain/matcher.js';
import { sectors } from '../domain/sectors.js';
import { siteUrls } from '../core/urls.js';
import type { SectorSlug } from '../schemas/enums.js';
import type { Meta, SignalsResponse, Startup } from '../schemas/signals.js';
import type { Scores } from '../pipeline/types.js';
import { TRENDING_SIZE } from '../domain/rules.js';
import { renderSignalsCsv } from './csv.js';

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
  signalsJson: Rendered;
  /** Strong validator of /api/dataset.jsonl: the export is a deterministic function of the stored periods. */
  datasetEtag: string;
  /** Changes whenever any stored period changes. */
  fingerprint: string;
}

export interface SnapshotInput {
  baseUrl: string;
  period: PeriodInfo;
  periods: PeriodInfo[];
  startups: Omit<SnapshotStartup, 'json'>[];
}

export function strongEtag(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
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
  const { baseUrl, period } = input;
  const synthetic = period.dataset === 'synthetic-demo';
  const startups: SnapshotStartup[] = input.startups.map((s) => ({ ...s, json: undefined }));
  const bySector = new Map<SectorSlug, SnapshotStartup[]>(sectors.map((s) => [s.slug, []]));
  for (const s of startups) bySector.get(s.sector)?.push(s);
  for (const list of bySector.values()) list.sort((a, b) => a.rankInSector - b.rankInSector);
  const trending = startups
    .filter((s) => s.rankOverall !== null)
    .sort((a, b) => a.rankOverall! - b.rankOverall!)
    .slice(0, TRENDING_SIZE);

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
  const fingerprint = periodsFingerprint(input.periods);
  return {
    period,
    periods: input.periods,
    synthetic,
    meta,
    startups,
    byLogin: new Map(startups.map((s) => [s.login.toLowerCase(), s])),
    bySector,
    trending,
    matcher: new NameMatcher(startups, (s) => ({ name: s.startup.name, slug: s.login })),
    signalsJson: rendered(JSON.stringify(response), 'application/json; charset=utf-8'),
    datasetEtag: `"${fingerprint.slice(0, 32)}"`,
    fingerprint,
  };
}

/** The startup's record as /api/signal answers it, rendered at its first use and kept with the snapshot. */
export function startupJson(startup: SnapshotStartup): Rendered {
  return (startup.json ??= rendered(JSON.stringify(startup.startup), 'application/json; charset=utf-8'));
}

/**
 * Memoises a value computed from a snapshot (a search index, an answer corpus): built once per snapshot, dropped
 * with it. Later modules use this instead of keeping their own copies of snapshot data.
 */
export function derive<T>(build: (snapshot: Snapshot) => T): (snapshot: Snapshot) => T {
  const cache = new WeakMap<Snapshot, { value: T }>();
  return (snapshot) => {
    let entry = cache.get(snapshot);
    if (!entry) {
      entry = { value: build(snapshot) };
      cache.set(snapshot, entry);
    }
    return entry.value;
  };
}

/**
 * /api/signals.csv's body, rendered once per snapshot: by the warm-up right after the server listens (see
 * signalsRoutes), or by the first request if that comes sooner. At 10,000 startups it takes about 75 ms, which the
 * start no longer waits for.
 */
export const signalsCsv = derive((snapshot): Rendered => {
  const trendingRank = new Map(snapshot.trending.map((s, i) => [s.login, i + 1]));
  return rendered(
    renderSignalsCsv(snapshot.period.slug, snapshot.bySector, trendingRank, snapshot.synthetic),
    'text/csv; charset=utf-8; header=present',
  );
});
