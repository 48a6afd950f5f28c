import type { EarlyCall, MilestoneType, ScoutRank, ValidatedCompany } from '../../schemas/scout.js';
import type { CompanyList } from './companies.js';

/** One starred repository with the time it was starred, as kept in the cache. */
export interface Star {
  /** ISO time the user starred the repository. */
  at: string;
  owner: string;
  name: string;
  language: string | null;
  topics: string[];
}

/**
 * The formula, in numbers (documented in docs/api.md, "Scout Score and badges"):
 * - for each validated company, take the user's first star on any repository of its GitHub organisation;
 * - a star at least MIN_LEAD_DAYS before the milestone is an early call; lead = (milestone − star) in days;
 * - call points = POINTS_PER_CALL × weight(milestone type) × (1 + min(lead / 365, MAX_LEAD_YEARS));
 * - points = sum of call points; score = round(100 × points / (points + HALF_SCORE_POINTS)), so 0–100 and never
 *   quite 100: each further call counts, with diminishing returns.
 */
export const MIN_LEAD_DAYS = 30;
export const MAX_LEAD_YEARS = 3;
export const POINTS_PER_CALL = 10;
export const HALF_SCORE_POINTS = 100;
export const MILESTONE_WEIGHTS: Record<MilestoneType, number> = { ipo: 1, acquisition: 0.8, 'priced-round': 0.6 };

/** Lowest score of each rank, best first. */
export const RANK_THRESHOLDS: readonly { rank: ScoutRank; minScore: number }[] = [
  { rank: 'oracle', minScore: 80 },
  { rank: 'elite', minScore: 60 },
  { rank: 'sharp', minScore: 35 },
  { rank: 'scout', minScore: 10 },
  { rank: 'curious', minScore: 0 },
];

export const FORMULA_TEXT =
  `For each validated company, the user's first star on any repository of its GitHub organisation counts when it came at least ${MIN_LEAD_DAYS} days before the milestone. ` +
  `Call points = ${POINTS_PER_CALL} × weight × (1 + lead in years, capped at ${MAX_LEAD_YEARS}); weights: IPO ${MILESTONE_WEIGHTS.ipo}, acquisition ${MILESTONE_WEIGHTS.acquisition}, priced round ${MILESTONE_WEIGHTS['priced-round']}. ` +
  `Score = round(100 × points / (points + ${HALF_SCORE_POINTS})). ` +
  `Ranks: curious 0–9, scout 10–34, sharp 35–59, elite 60–79, oracle 80–100.`;

const DAY_MS = 86_400_000;

export interface ScoreResult {
  score: number;
  rank: ScoutRank;
  points: number;
  /** Every early call, most points first (ties: longest lead, then company name). */
  calls: EarlyCall[];
  /** Validated companies starred, but less than MIN_LEAD_DAYS before (or after) their milestone. */
  lateStars: number;
}

export function rankFor(score: number): ScoutRank {
  return RANK_THRESHOLDS.find((t) => score >= t.minScore)!.rank;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function callPoints(company: ValidatedCompany, leadDays: number): number {
  const years = Math.min(leadDays / 365, MAX_LEAD_YEARS);
  return round2(POINTS_PER_CALL * MILESTONE_WEIGHTS[company.milestone] * (1 + years));
}

/** The Scout Score of a star history against the validated companies. Pure: the same stars give the same score. */
export function scoreStars(stars: readonly Star[], list: CompanyList): ScoreResult {
  const firstStar = new Map<string, Star>();
  for (const star of stars) {
    const key = star.owner.toLowerCase();
    if (!list.byOrg.has(key)) continue;
    const seen = firstStar.get(key);
    if (!seen || Date.parse(star.at) < Date.parse(seen.at)) firstStar.set(key, star);
  }
  const calls: EarlyCall[] = [];
  let lateStars = 0;
  for (const [key, star] of firstStar) {
    const company = list.byOrg.get(key)!;
    const leadDays = Math.floor((Date.parse(`${company.date}T00:00:00Z`) - Date.parse(star.at)) / DAY_MS);
    if (leadDays < MIN_LEAD_DAYS) {
      lateStars++;
      continue;
    }
    calls.push({
      company: company.company,
      org: company.org,
      repository: `${star.owner}/${star.name}`,
      starredAt: new Date(star.at).toISOString(),
      milestone: { type: company.milestone, date: company.date, detail: company.detail, source: company.source },
      leadDays,
      points: callPoints(company, leadDays),
    });
  }
  calls.sort((a, b) => b.points - a.points || b.leadDays - a.leadDays || a.company.localeCompare(b.company));
  const points = round2(calls.reduce((sum, c) => sum + c.points, 0));
  const score = Math.round((100 * points) / (points + HALF_SCORE_POINTS));
  return { score, rank: rankFor(score), points, calls, lateStars };
}

/** The most frequent values, most first (ties alphabetical). */
export function topCounts(values: Iterable<string>, limit: number): { name: string; stars: number }[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([name, stars]) => ({ name, stars }));
}

const LEANING: Record<MilestoneType, string> = {
  ipo: 'companies that went on to list publicly',
  acquisition: 'companies that went on to be acquired',
  'priced-round': 'companies that went on to raise large priced rounds',
};

/**
 * A one-paragraph portrait derived only from the data: how many calls and how early, which milestones they lean to,
 * and what the user stars most (languages, topics).
 */
export function personalitySummary(stars: readonly Star[], result: ScoreResult): string {
  if (stars.length === 0) return 'No public stars yet, so there is nothing to read: star what you believe in.';
  const languages = topCounts(
    stars.map((s) => s.language).filter((l): l is string => Boolean(l)),
    2,
  ).map((l) => l.name);
  const topic = topCounts(
    stars.flatMap((s) => s.topics),
    1,
  )[0]?.name;
  const taste =
    (languages.length ? ` Stars mostly ${languages.join(' and ')} projects` : ' Stars projects of every kind') +
    (topic ? `, with a soft spot for ${topic}.` : '.');
  const n = result.calls.length;
  if (n === 0) {
    const late = result.lateStars
      ? ` ${result.lateStars} validated ${result.lateStars === 1 ? 'company was' : 'companies were'} starred only once the news was out.`
      : '';
    return `Explorer: ${stars.length} ${stars.length === 1 ? 'star' : 'stars'} and no early call on a validated company yet.${late}${taste}`;
  }
  const averageYears = result.calls.reduce((sum, c) => sum + c.leadDays, 0) / n / 365;
  const archetype = averageYears >= 2 ? 'Deep-early spotter' : averageYears >= 1 ? 'Early adopter' : 'Quick follower';
  const counts = new Map<MilestoneType, number>();
  for (const c of result.calls) counts.set(c.milestone.type, (counts.get(c.milestone.type) ?? 0) + 1);
  const leaning = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
  return (
    `${archetype}: ${n} early ${n === 1 ? 'call' : 'calls'} on validated companies, on average ` +
    `${averageYears.toFixed(1)} years before the milestone, leaning to ${LEANING[leaning]}. ` +
    `Best call: ${result.calls[0]!.company}.${taste}`
  );
}
