import { stageSourceOf } from '../../domain/stage-source.js';
import { evidenceDetails } from '../../domain/evidence-links.js';
import type { SignalEvidence } from '../../domain/records.js';
import { signalLabel } from '../../domain/signal-label.js';
import { collectionOf } from '../../domain/collection.js';
import type { DeepSignal, DeepSignalMiss } from '../../schemas/deep-signal.js';
import { startupHistory } from '../../snapshot/history.js';
import { startupCandidates } from '../signals/resolve.js';
import { derive, type Snapshot, type SnapshotStartup } from '../../snapshot/snapshot.js';
import type { HistoryEntry } from '../../domain/period-startup.js';
import { CREDITS_PER_MATCHED_CALL, CREDITS_PER_MISS } from '../documents/pricing.js';
import { comparablesOf } from './comparables.js';
import { sectorStandings } from './scores.js';
import { writeThesis } from './thesis.js';

export { COMPARABLES, SIGNAL_TYPE_PENALTY } from './comparables.js';
export { composite, sectorPercentile, sectorStandings } from './scores.js';

/**
 * Deep Signal: the enriched profile of one tracked startup, the one core function behind every paid surface (the
 * credit route, x402, MCP, A2A, /api/agent/call). It charges nothing itself: a hit says what it costs in `charged`
 * (CREDITS_PER_MATCHED_CALL) and the caller takes the payment before it answers; a miss costs CREDITS_PER_MISS.
 */

export type DeepSignalResult =
  { found: true; startup: SnapshotStartup; body: DeepSignal } | { found: false; body: DeepSignalMiss };

export const DEEP_SIGNAL_MISS: DeepSignalMiss = Object.freeze({ found: false, charged: CREDITS_PER_MISS as 0 });

/**
 * The evidence stored with the record by the classify stage (`metrics.signalEvidence`), as the payload shows it: its
 * rule, and the record's signal label (strength and one-line summary; for a week of the older rule, read from its
 * stored numbers).
 */
export function evidenceOf(startup: SnapshotStartup): DeepSignal['evidence'] {
  const e = startup.metrics['signalEvidence'] as SignalEvidence | undefined;
  const label = signalLabel(startup.startup.signalType, startup.metrics);
  return {
    rule: e?.rule ?? 'unknown',
    strength: label.signalStrength,
    summary: label.signalEvidence,
    details: evidenceDetails(startup.startup.githubUrl, startup.metrics),
  };
}

/** The history entries of the payload: every stored period the startup appears in, oldest first. */
export function historyEntries(rows: readonly HistoryEntry[]): DeepSignal['history'] {
  return rows.map((r) => ({
    period: r.period,
    periodName: r.periodName,
    sector: r.sector,
    rankInSector: r.rankInSector,
    rankOverall: r.rankOverall,
    compositeScore: r.compositeScore,
    commitVelocity14d: r.startup.commitVelocity14d,
    commitVelocityChange: r.startup.commitVelocityChange,
    contributors: r.startup.contributors,
    contributorGrowth: r.startup.contributorGrowth,
    newRepos: r.startup.newRepos,
    signalType: r.startup.signalType,
    ...r.label,
  }));
}

/** The payload for a startup already found (for callers that matched it themselves). */
export async function deepSignalFor(snapshot: Snapshot, startup: SnapshotStartup): Promise<DeepSignal> {
  const standing = sectorStandings(snapshot).get(startup);
  if (!standing) throw new Error(`${startup.login} is not a startup of this snapshot`);
  const rows = await startupHistory(snapshot, startup.login);
  const st = startup.startup;
  return {
    found: true,
    name: st.name,
    sector: startup.sector,
    stage: st.stage,
    stageSource: stageSourceOf(startup.metrics),
    geography: st.geography,
    signalType: st.signalType,
    ...signalLabel(st.signalType, startup.metrics),
    ...collectionOf(startup),
    scores: { ...standing.scores },
    rank: {
      inSector: standing.inSector,
      sectorTotal: standing.sectorTotal,
      sectorPercentile: standing.sectorPercentile,
    },
    thesis: writeThesis({
      startup,
      standing,
      periodName: snapshot.period.name,
      history: rows,
      synthetic: snapshot.synthetic,
    }),
    evidence: evidenceOf(startup),
    comparables: comparablesOf(snapshot, startup),
    history: historyEntries(rows),
    charged: CREDITS_PER_MATCHED_CALL,
  };
}

/**
 * Payloads are a pure function of the snapshot and the stored history as of it, so each is built once per snapshot
 * and startup and shared (frozen) afterwards; the cache is part of the snapshot's derived state.
 */
const built = derive(() => new Map<SnapshotStartup, Promise<DeepSignal>>());

function cachedDeepSignal(snapshot: Snapshot, startup: SnapshotStartup): Promise<DeepSignal> {
  const bodies = built(snapshot);
  let body = bodies.get(startup);
  if (!body) {
    const pending = deepSignalFor(snapshot, startup).then(deepFreeze);
    pending.catch(() => {
      if (bodies.get(startup) === pending) bodies.delete(startup);
    });
    bodies.set(startup, (body = pending));
  }
  return body;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Looks `name` up strictly — an exact display name, GitHub organisation slug or alias, never a typo, since a hit is
 * charged — and builds the payload, or the miss `{found: false, charged: 0}` with "did you mean" `candidates` when a
 * startup is close (a typo included). A name the matcher cannot use (blank, punctuation only) is a miss. The payload
 * is frozen and shared between calls: copy it before changing it.
 */
export async function deepSignal(snapshot: Snapshot, name: string): Promise<DeepSignalResult> {
  const resolution = snapshot.matcher.resolve(name, { typos: false, misspeltGenerics: false });
  if (resolution.status !== 'match') {
    const candidates = startupCandidates(resolution);
    return { found: false, body: candidates.length ? { ...DEEP_SIGNAL_MISS, candidates } : DEEP_SIGNAL_MISS };
  }
  return { found: true, startup: resolution.item, body: await cachedDeepSignal(snapshot, resolution.item) };
}
