import type { SectorSlug } from '../schemas/enums.js';
import type { Startup } from '../schemas/signals.js';
import {
  COMPOSITE_WEIGHTS,
  MIN_COMMITS_FOR_RANKING,
  MIN_CONTRIBUTORS_FOR_RANKING,
  TRENDING_SIZE,
} from '../domain/rules.js';
import type { RankedPeriod, RankedStartup, ScoredOrg, Scores } from '../domain/records.js';
import { hasRankableEvidence, signalLabel } from '../domain/signal-label.js';
import { countryName } from './geography.js';

/**
 * Percentile rank (0–100) of each value within `values`, ties sharing the mid-point:
 * 100 × (number below + half the number equal) / count. One value alone scores 50.
 */
export function percentileRanks(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const below = new Map<number, number>();
  const equal = new Map<number, number>();
  sorted.forEach((v, i) => {
    if (!below.has(v)) below.set(v, i);
    equal.set(v, (equal.get(v) ?? 0) + 1);
  });
  return values.map((v) => Math.round((100 * (below.get(v)! + equal.get(v)! / 2)) / values.length));
}

export function isAboveActivityFloor(org: ScoredOrg): boolean {
  return (
    org.metrics.commitsCurrent >= MIN_COMMITS_FOR_RANKING &&
    org.metrics.contributorsCurrent >= MIN_CONTRIBUTORS_FOR_RANKING
  );
}

/**
 * The rank-stage evidence rule (RANKED_STRENGTHS): a startup whose signal type has no evidence behind it is not
 * ranked across sectors, so the trending list never holds a type given by the tie order alone. The strength is read
 * as every published record carries it (signalLabel).
 */
export function hasEvidenceForItsType(org: ScoredOrg): boolean {
  const stored = { ...org.metrics, ...org.acceleration, signalEvidence: org.classification.evidence };
  return hasRankableEvidence(signalLabel(org.classification.signalType, stored));
}

function toStartup(org: ScoredOrg): Startup {
  const { entry, profile, metrics, acceleration, classification } = org;
  const githubUrl = entry.github ?? `https://github.com/${entry.login}`;
  return {
    name: entry.displayName,
    description: entry.description ?? profile.description ?? '',
    stage: classification.stage,
    // A country the watchlist states with a source wins over the one estimated from the GitHub profile.
    geography: entry.country ? countryName(entry.country) : metrics.geography,
    commitVelocity14d: metrics.commitsCurrent,
    commitVelocityChange: acceleration.commitVelocityChange,
    contributors: metrics.contributorsCurrent,
    contributorGrowth: acceleration.contributorGrowth,
    newRepos: metrics.newRepos30d,
    signalType: classification.signalType,
    githubUrl,
    websiteUrl: entry.website ?? websiteFromBlog(profile.blog) ?? githubUrl,
    linkedinUrl:
      entry.linkedin ??
      `https://www.linkedin.com/search/results/companies/?keywords=${encodeURIComponent(entry.displayName)}`,
  };
}

/** GitHub's `blog` field is free text; keep it only when it is a usable http(s) address. */
export function websiteFromBlog(blog: string | null): string | undefined {
  const text = blog?.trim();
  if (!text) return undefined;
  try {
    const url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
    return url.hostname.includes('.') ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

type Candidate = { org: ScoredOrg; scores: Scores; aboveFloor: boolean; eligible: boolean };

/** Above the activity floor first, then composite score, commits, commit change, and login for a total, stable order. */
function byRanking(a: Candidate, b: Candidate): number {
  return (
    Number(b.aboveFloor) - Number(a.aboveFloor) ||
    b.scores.composite - a.scores.composite ||
    b.org.metrics.commitsCurrent - a.org.metrics.commitsCurrent ||
    b.org.acceleration.commitChangePct - a.org.acceleration.commitChangePct ||
    (a.org.entry.login < b.org.entry.login ? -1 : a.org.entry.login > b.org.entry.login ? 1 : 0)
  );
}

/**
 * Stage 6, rank: percentile scores within the period, a composite of them, and one ordering used both across
 * sectors and inside each sector. Across sectors (trending: the top 20) only startups above the activity floor with
 * evidence for their signal type are ranked; each sector lists all its startups, those above the floor first.
 */
export function rank(orgs: readonly ScoredOrg[]): RankedPeriod {
  const velocity = percentileRanks(orgs.map((o) => o.metrics.commitsCurrent));
  const growth = percentileRanks(orgs.map((o) => o.acceleration.commitChangePct));
  const novelty = percentileRanks(orgs.map((o) => o.metrics.newRepos30d));
  const candidates: Candidate[] = orgs.map((org, i) => {
    const s = { velocity: velocity[i]!, growth: growth[i]!, novelty: novelty[i]! };
    const composite = Math.round(
      COMPOSITE_WEIGHTS.growth * s.growth +
        COMPOSITE_WEIGHTS.velocity * s.velocity +
        COMPOSITE_WEIGHTS.novelty * s.novelty,
    );
    const aboveFloor = isAboveActivityFloor(org);
    return { org, scores: { ...s, composite }, aboveFloor, eligible: aboveFloor && hasEvidenceForItsType(org) };
  });
  candidates.sort(byRanking);

  const sectorPosition = new Map<SectorSlug, number>();
  let overall = 0;
  const ordered: RankedStartup[] = candidates.map(({ org, scores, eligible }) => {
    const inSector = (sectorPosition.get(org.entry.sector) ?? 0) + 1;
    sectorPosition.set(org.entry.sector, inSector);
    return {
      login: org.entry.login,
      sector: org.entry.sector,
      startup: toStartup(org),
      scores,
      eligible,
      rankOverall: eligible ? ++overall : null,
      rankInSector: inSector,
      metrics: org.metrics,
      acceleration: org.acceleration,
      signalEvidence: org.classification.evidence,
      stageSource: org.classification.stageSource,
      ...(org.collectionNote ? { collectionNote: org.collectionNote } : {}),
    };
  });

  // Overall order: the ranked startups by rank, then the rest (each sector's list keeps the order above).
  const startups = [...ordered.filter((s) => s.eligible), ...ordered.filter((s) => !s.eligible)];
  const bySector = new Map<SectorSlug, RankedStartup[]>();
  for (const s of ordered) {
    const list = bySector.get(s.sector) ?? [];
    list.push(s);
    bySector.set(s.sector, list);
  }
  return { startups, trending: startups.filter((s) => s.eligible).slice(0, TRENDING_SIZE), bySector };
}
