import { stageSourceOf } from '../domain/stage-source.js';
import { LRUCache } from 'lru-cache';
import { ServiceError } from '../domain/errors.js';
import { signalLabel } from '../domain/signal-label.js';
import { Startup, type DatasetRecord, type SignalLabel } from '../schemas/signals.js';
import { derive, type PeriodInfo, type Snapshot, type SnapshotStartup } from '../snapshot/snapshot.js';

/**
 * What the agent tools read of a stored period. The current period is the snapshot itself (so a tool without a
 * `period` answers exactly what the REST route answers); an earlier period is read through the snapshot's `source`
 * (the dataset export's records of that one period, which carry the rank, the sector rank, the composite score and
 * the signal label of every startup as it was published), once per snapshot and period.
 */

/** One startup in one period, the same fields whichever period it comes from. */
export interface PeriodStartup {
  login: string;
  sector: DatasetRecord['sector'];
  rankOverall: number | null;
  rankInSector: number;
  compositeScore: number;
  startup: Startup;
  label: SignalLabel;
}

export interface PeriodView {
  info: PeriodInfo;
  current: boolean;
  /** Every startup of the period, in the period's stored order. */
  startups: PeriodStartup[];
}

/** The `period` argument every read tool accepts: an ISO week slug. */
export const PERIOD_SLUG_PATTERN = /^\d{4}-w\d{2}$/;

function fromSnapshot(s: SnapshotStartup): PeriodStartup {
  return {
    login: s.login,
    sector: s.sector,
    rankOverall: s.rankOverall,
    rankInSector: s.rankInSector,
    compositeScore: s.scores.composite,
    startup: s.startup,
    label: {
      name: s.startup.name,
      signalType: s.startup.signalType,
      ...signalLabel(s.startup.signalType, s.metrics),
      stageSource: stageSourceOf(s.metrics),
    },
  };
}

function fromRecord(r: DatasetRecord): PeriodStartup {
  const startup = Startup.parse(r);
  return {
    login: r.org,
    sector: r.sector,
    rankOverall: r.rank,
    rankInSector: r.sectorRank,
    compositeScore: r.compositeScore,
    startup,
    label: {
      name: startup.name,
      signalType: startup.signalType,
      signalStrength: r.signalStrength,
      signalEvidence: r.signalEvidence,
      stageSource: r.stageSource,
      signalFinding: r.signalFinding,
    },
  };
}

/** The earlier periods read so far, a few at a time (least recently used dropped first). */
const earlierPeriods = derive(() => new LRUCache<string, Promise<PeriodStartup[]>>({ max: 8 }));
const currentPeriod = derive((snapshot) => snapshot.startups.map(fromSnapshot));

async function readPeriod(snapshot: Snapshot, slug: string): Promise<PeriodStartup[]> {
  const out: PeriodStartup[] = [];
  for await (const page of snapshot.source.datasetPages([slug])) {
    for (const record of page) if (record.period === slug) out.push(fromRecord(record));
  }
  return out;
}

/** The stored period of that slug (the current one when absent), or a 404 naming where the list is. */
export function periodInfo(snapshot: Snapshot, slug: string | undefined): PeriodInfo {
  if (slug === undefined || slug === snapshot.period.slug) return snapshot.period;
  const info = snapshot.periods.find((p) => p.slug === slug);
  if (info) return info;
  const newest = snapshot.periods.at(-1)?.slug;
  const oldest = snapshot.periods[0]?.slug;
  throw new ServiceError(
    'not-found',
    `No stored period ${JSON.stringify(slug.slice(0, 20))}: ${snapshot.periods.length} periods are stored` +
      (oldest && newest ? `, from ${oldest} to ${newest}` : '') +
      ' (list_periods names them).',
  );
}

/** Every startup of a stored period (the current one when `slug` is absent). */
export async function periodView(snapshot: Snapshot, slug: string | undefined): Promise<PeriodView> {
  const info = periodInfo(snapshot, slug);
  if (info.slug === snapshot.period.slug) return { info, current: true, startups: currentPeriod(snapshot) };
  const cache = earlierPeriods(snapshot);
  let pending = cache.get(info.slug);
  if (!pending) {
    const entry = readPeriod(snapshot, info.slug);
    cache.set(info.slug, entry);
    entry.catch(() => {
      if (cache.get(info.slug) === entry) cache.delete(info.slug);
    });
    pending = entry;
  }
  return { info, current: false, startups: await pending };
}

/** A period as the tools name it. */
export function periodRef(info: PeriodInfo): { slug: string; name: string } {
  return { slug: info.slug, name: info.name };
}
