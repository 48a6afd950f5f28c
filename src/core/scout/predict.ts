import type { SectorSlug } from '../../schemas/enums.js';
import type { ScoutPrediction, ScoutPredictions } from '../../schemas/scout.js';
import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import { sectorInfo } from '../../domain/sectors.js';
import { topCounts, type Star } from './score.js';

/**
 * Scout predictions (experimental): which currently tracked startups a user is most likely to be early on, from
 * what they star. A repository topic names a sector through the keywords below; a starred repository of a tracked
 * organisation is the strongest sign; a language the startup recently took up and the user stars often adds a
 * little; the startup's own momentum (its composite score) breaks ties.
 */
const SECTOR_KEYWORDS: Record<SectorSlug, readonly string[]> = {
  healthcare: ['health', 'healthcare', 'medical', 'fhir', 'hl7', 'bioinformatics', 'clinical', 'dicom'],
  edtech: ['education', 'edtech', 'learning', 'lms', 'teaching', 'course', 'moodle'],
  'ecommerce-infrastructure': ['ecommerce', 'e-commerce', 'shopify', 'payments', 'checkout', 'commerce', 'stripe'],
  'supply-chain': ['logistics', 'supply-chain', 'inventory', 'warehouse', 'shipping', 'erp', 'procurement'],
  web3: ['blockchain', 'ethereum', 'solana', 'web3', 'crypto', 'smart-contracts', 'defi', 'bitcoin', 'solidity'],
  'enterprise-saas': ['saas', 'crm', 'enterprise', 'workflow', 'security', 'authentication', 'sso', 'collaboration'],
  'data-infrastructure': [
    'database',
    'sql',
    'postgresql',
    'postgres',
    'kafka',
    'streaming',
    'etl',
    'analytics',
    'data-engineering',
    'observability',
    'monitoring',
    'big-data',
  ],
  robotics: ['robotics', 'ros', 'ros2', 'robot', 'autonomous-vehicles', 'drones', 'slam'],
  'legal-tech': ['legal', 'legaltech', 'law', 'contracts', 'compliance'],
  'hr-tech': ['hr', 'recruiting', 'hiring', 'payroll', 'hris', 'ats'],
  proptech: ['real-estate', 'proptech', 'property', 'mortgage', 'housing'],
  agtech: ['agriculture', 'agtech', 'farming', 'crop', 'precision-agriculture'],
  gaming: ['game', 'gamedev', 'game-engine', 'unity', 'godot', 'unreal-engine', 'games'],
  'space-tech': ['space', 'satellite', 'aerospace', 'astronomy', 'orbital', 'rocket'],
  'social-community': ['social', 'community', 'chat', 'forum', 'fediverse', 'activitypub', 'mastodon', 'messaging'],
};

const KEYWORD_SECTOR = new Map<string, SectorSlug>(
  (Object.entries(SECTOR_KEYWORDS) as [SectorSlug, readonly string[]][]).flatMap(([sector, words]) =>
    words.map((w) => [w, sector] as [string, SectorSlug]),
  ),
);

export const PREDICTION_METHOD =
  'Experimental. likelihood = 100 × (0.45 × starred a repository of the organisation + 0.35 × share of your sector-tagged stars in its sector + 0.10 × it recently adopted one of your two most-starred languages + 0.10 × its composite score / 100). Topics map to sectors through fixed keywords; startups with none of the first three signs are left out.';

export interface StarProfile {
  starsAnalysed: number;
  topLanguages: { name: string; stars: number }[];
  topTopics: { name: string; stars: number }[];
  sectors: { sector: SectorSlug; weight: number }[];
  /** Lower-case owner login → the first star on it. */
  owners: Map<string, Star>;
}

export function starProfile(stars: readonly Star[]): StarProfile {
  const sectorCounts = new Map<SectorSlug, number>();
  let tagged = 0;
  const owners = new Map<string, Star>();
  for (const star of stars) {
    const key = star.owner.toLowerCase();
    if (!owners.has(key)) owners.set(key, star);
    const sectors = new Set(star.topics.map((t) => KEYWORD_SECTOR.get(t.toLowerCase())).filter(Boolean));
    if (sectors.size) tagged++;
    for (const s of sectors) sectorCounts.set(s!, (sectorCounts.get(s!) ?? 0) + 1);
  }
  const sectors = [...sectorCounts]
    .map(([sector, count]) => ({ sector, weight: Math.round((count / tagged) * 100) / 100 }))
    .sort((a, b) => b.weight - a.weight || a.sector.localeCompare(b.sector));
  return {
    starsAnalysed: stars.length,
    topLanguages: topCounts(
      stars.map((s) => s.language).filter((l): l is string => Boolean(l)),
      5,
    ),
    topTopics: topCounts(
      stars.flatMap((s) => s.topics.map((t) => t.toLowerCase())),
      10,
    ),
    sectors,
    owners,
  };
}

function predictionFor(profile: StarProfile, entry: SnapshotStartup): Omit<ScoutPrediction, 'rank'> | undefined {
  const reasons: string[] = [];
  const starred = profile.owners.get(entry.login.toLowerCase());
  if (starred) reasons.push(`You starred ${starred.owner}/${starred.name} on ${starred.at.slice(0, 10)}.`);
  const sectorWeight = profile.sectors.find((s) => s.sector === entry.sector)?.weight ?? 0;
  if (sectorWeight > 0) {
    reasons.push(
      `${Math.round(sectorWeight * 100)}% of your topic-tagged stars are ${sectorInfo(entry.sector).name} projects.`,
    );
  }
  const myLanguages = new Set(profile.topLanguages.slice(0, 2).map((l) => l.name.toLowerCase()));
  const newLanguages = Array.isArray(entry.metrics.newLanguages) ? (entry.metrics.newLanguages as unknown[]) : [];
  const shared = newLanguages.find((l): l is string => typeof l === 'string' && myLanguages.has(l.toLowerCase()));
  if (shared) reasons.push(`It recently started new ${shared} repositories, a language you star often.`);
  if (reasons.length === 0) return undefined;
  const composite = Math.max(0, Math.min(100, Math.round(entry.scores.composite)));
  reasons.push(`Signal this period: ${entry.startup.signalType}, commits ${entry.startup.commitVelocityChange}.`);
  const likelihood = Math.round(
    100 * (0.45 * (starred ? 1 : 0) + 0.35 * sectorWeight + 0.1 * (shared ? 1 : 0) + 0.1 * (composite / 100)),
  );
  return {
    org: entry.login,
    likelihood,
    reasons,
    sector: entry.sector,
    compositeScore: composite,
    signal: entry.startup,
  };
}

/** Ranked predictions: highest likelihood first, then higher composite score, then name. */
export function predictFromStars(
  stars: readonly Star[],
  snapshot: Snapshot,
  limit: number,
): Pick<ScoutPredictions, 'profile' | 'predictions' | 'period' | 'method'> {
  const profile = starProfile(stars);
  const predictions = snapshot.startups
    .map((entry) => predictionFor(profile, entry))
    .filter((p): p is Omit<ScoutPrediction, 'rank'> => p !== undefined)
    .sort(
      (a, b) =>
        b.likelihood - a.likelihood ||
        b.compositeScore - a.compositeScore ||
        a.signal.name.localeCompare(b.signal.name),
    )
    .slice(0, limit)
    .map((p, i) => ({ rank: i + 1, ...p }));
  const { owners: _owners, ...shown } = profile;
  return {
    method: PREDICTION_METHOD,
    period: { slug: snapshot.period.slug, name: snapshot.period.name },
    profile: shown,
    predictions,
  };
}
