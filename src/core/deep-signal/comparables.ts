import { stageSourceOf, type StageSource } from '../../domain/stage-source.js';
import { signalLabel, type SignalLabel } from '../../domain/signal-label.js';
import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import { sectorOf, sectorStandings, type SectorScores } from './scores.js';

/**
 * Comparables: the startups of the same sector whose signal profile is closest, not the top of the list.
 * Profile distance d = Euclidean distance of the (velocity, growth, novelty) sector scores, plus
 * SIGNAL_TYPE_PENALTY when the signal types differ (what the activity looks like matters as much as how much of it
 * there is). The three smallest distances win; ties go to the better-ranked startup. similarity reports the score
 * part alone on 0–100: round(100 × (1 − euclidean / MAX_DISTANCE)).
 */
export const COMPARABLES = 3;
export const SIGNAL_TYPE_PENALTY = 15;
const MAX_DISTANCE = Math.sqrt(3) * 100;

export interface Comparable extends SignalLabel {
  name: string;
  githubUrl: string;
  stage: SnapshotStartup['startup']['stage'];
  stageSource: StageSource;
  signalType: SnapshotStartup['startup']['signalType'];
  rankInSector: number;
  scores: SectorScores;
  similarity: number;
  reason: string;
}

function euclidean(a: SectorScores, b: SectorScores): number {
  return Math.hypot(a.velocity - b.velocity, a.growth - b.growth, a.novelty - b.novelty);
}

const DIMENSIONS = ['velocity', 'growth', 'novelty'] as const;

function reasonFor(target: SnapshotStartup, ts: SectorScores, peer: SnapshotStartup, ps: SectorScores): string {
  const shared: string[] = [];
  if (peer.startup.signalType === target.startup.signalType)
    shared.push(`the same signal type (${peer.startup.signalType})`);
  if (peer.startup.stage === target.startup.stage) shared.push(`the same stage (${peer.startup.stage})`);
  const close = DIMENSIONS.filter((d) => Math.abs(ps[d] - ts[d]) <= 10);
  const far = DIMENSIONS.filter((d) => Math.abs(ps[d] - ts[d]) > 10);
  const pairs = DIMENSIONS.map((d) => `${d} ${ps[d]} vs ${ts[d]}`).join(', ');
  const lead = shared.length ? `Shares ${shared.join(' and ')}` : `Different signal type (${peer.startup.signalType})`;
  const closeness =
    close.length === 3
      ? 'all three sector scores within 10 points'
      : close.length
        ? `close on ${close.join(' and ')}, apart on ${far.join(' and ')}`
        : 'no score within 10 points';
  return `${lead}; ${closeness} (${pairs}).`;
}

export function comparablesOf(snapshot: Snapshot, target: SnapshotStartup): Comparable[] {
  const standings = sectorStandings(snapshot);
  const ts = standings.get(target)!.scores;
  return sectorOf(snapshot, target.sector)
    .filter((peer) => peer !== target)
    .map((peer) => {
      const ps = standings.get(peer)!.scores;
      const d = euclidean(ts, ps);
      const penalty = peer.startup.signalType === target.startup.signalType ? 0 : SIGNAL_TYPE_PENALTY;
      return { peer, ps, d, rankDistance: d + penalty };
    })
    .sort((a, b) => a.rankDistance - b.rankDistance || a.peer.rankInSector - b.peer.rankInSector)
    .slice(0, COMPARABLES)
    .map(({ peer, ps, d }) => ({
      name: peer.startup.name,
      githubUrl: peer.startup.githubUrl,
      stage: peer.startup.stage,
      stageSource: stageSourceOf(peer.metrics),
      signalType: peer.startup.signalType,
      ...signalLabel(peer.startup.signalType, peer.metrics),
      rankInSector: peer.rankInSector,
      scores: ps,
      similarity: Math.max(0, Math.round(100 * (1 - d / MAX_DISTANCE))),
      reason: reasonFor(target, ts, peer, ps),
    }));
}
