import { COMPOSITE_WEIGHTS } from '../../domain/rules.js';
import { percentileRanks } from '../../pipeline/rank.js';
import type { SectorSlug } from '../../schemas/enums.js';
import { derive, type Snapshot, type SnapshotStartup } from '../../snapshot/snapshot.js';

/**
 * Deep Signal scores: each startup against the other startups of its own sector in the current period (the free
 * scores compare it with every tracked startup). Each input is turned into a percentile rank within the sector with
 * the pipeline's rule, 100 × (number below + half the number equal) / count, so ties share a value and a sector of
 * one scores 50:
 *   velocity  = pct(commits in the 14-day window)
 *   growth    = round((pct(commit change %) + pct(contributor change %)) / 2)
 *   novelty   = pct(public repositories created in the last 30 days)
 *   composite = round(0.5 × growth + 0.3 × velocity + 0.2 × novelty)   (the published composite weights)
 * Rank: the published sector position; sectorPercentile = round(100 × (total − position) / (total − 1)), 100 for a
 * sector of one.
 */
export interface SectorScores {
  velocity: number;
  growth: number;
  novelty: number;
  composite: number;
}

export interface SectorStanding {
  scores: SectorScores;
  inSector: number;
  sectorTotal: number;
  sectorPercentile: number;
}

/** A signed percent text ("+42%", "-7%") as a number; 0 when unreadable. */
export function percentOf(text: string): number {
  const n = Number.parseInt(text.replace('%', ''), 10);
  return Number.isFinite(n) ? n : 0;
}

function metric(s: SnapshotStartup, key: string, fallback: number): number {
  const value = s.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function commitChangePct(s: SnapshotStartup): number {
  return metric(s, 'commitChangePct', percentOf(s.startup.commitVelocityChange));
}

export function contributorChangePct(s: SnapshotStartup): number {
  return metric(s, 'contributorChangePct', percentOf(s.startup.contributorGrowth));
}

export function sectorPercentile(inSector: number, total: number): number {
  return total <= 1 ? 100 : Math.round((100 * (total - inSector)) / (total - 1));
}

export function composite(s: Omit<SectorScores, 'composite'>): number {
  return Math.round(
    COMPOSITE_WEIGHTS.growth * s.growth +
      COMPOSITE_WEIGHTS.velocity * s.velocity +
      COMPOSITE_WEIGHTS.novelty * s.novelty,
  );
}

/** Scores of every startup of one sector, in the sector's order. */
export function scoreSector(list: readonly SnapshotStartup[]): SectorStanding[] {
  const velocity = percentileRanks(list.map((s) => s.startup.commitVelocity14d));
  const commits = percentileRanks(list.map(commitChangePct));
  const people = percentileRanks(list.map(contributorChangePct));
  const novelty = percentileRanks(list.map((s) => s.startup.newRepos));
  return list.map((s, i) => {
    const base = {
      velocity: velocity[i]!,
      growth: Math.round((commits[i]! + people[i]!) / 2),
      novelty: novelty[i]!,
    };
    return {
      scores: { ...base, composite: composite(base) },
      inSector: s.rankInSector,
      sectorTotal: list.length,
      sectorPercentile: sectorPercentile(s.rankInSector, list.length),
    };
  });
}

/** Every startup's sector standing, computed once per snapshot. */
export const sectorStandings = derive((snapshot: Snapshot) => {
  const standings = new Map<SnapshotStartup, SectorStanding>();
  for (const list of snapshot.bySector.values()) {
    scoreSector(list).forEach((standing, i) => standings.set(list[i]!, standing));
  }
  return standings;
});

export function sectorOf(snapshot: Snapshot, sector: SectorSlug): readonly SnapshotStartup[] {
  return snapshot.bySector.get(sector) ?? [];
}
