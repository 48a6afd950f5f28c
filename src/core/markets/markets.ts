import { MarketsContent, type Market, type MarketSummary } from '../../schemas/documents.js';
import type { SectorSlug } from '../../schemas/enums.js';
import type { PeriodStartup } from '../../domain/period-startup.js';
import { deriveAsync } from '../../snapshot/derive-async.js';
import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import { readYamlContent, resolveSiteUrl } from '../documents/content.js';
import { comparePeriods, parsePeriodSlug, periodContaining, type PeriodRef } from '../../domain/periods.js';
import { sectorInfo } from '../../domain/sectors.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * Prediction markets: each is defined in content/markets.yaml by a scope (all sectors or one sector), how many of
 * the current leaders are candidates, and its dates. Everything else is computed from the current snapshot: the
 * question, the candidates with their signal data, and their implied probabilities.
 *
 * Implied probability (a softmax over composite scores, documented in every payload):
 *   p_i = exp(c_i / T) / Σ_j exp(c_j / T)
 * where c is a candidate's composite score (0–100) in the current period, j runs over the market's candidates and
 * T = MARKET_TEMPERATURE. A 10-point lead multiplies the odds by e ≈ 2.72.
 */
export const MARKET_TEMPERATURE = 10;
export const PROBABILITY_DECIMALS = 4;
export const MARKETS_FILE = 'markets.yaml';

export type MarketDefinition = MarketsContent['markets'][number];

export const PROBABILITY_FORMULA = `p_i = exp(c_i / ${MARKET_TEMPERATURE}) / Σ_j exp(c_j / ${MARKET_TEMPERATURE}), where c is a candidate's composite score (0–100) in the current period and j runs over the market's candidates; rounded to ${PROBABILITY_DECIMALS} decimals.`;

export function readMarkets(dir: string): MarketsContent {
  return readYamlContent(dir, MARKETS_FILE, MarketsContent);
}

/** Softmax of `scores / temperature`, computed stably (shifted by the maximum). */
export function impliedProbabilities(scores: readonly number[], temperature = MARKET_TEMPERATURE): number[] {
  if (scores.length === 0) return [];
  const max = Math.max(...scores);
  const weights = scores.map((s) => Math.exp((s - max) / temperature));
  const total = weights.reduce((a, b) => a + b, 0);
  const scale = 10 ** PROBABILITY_DECIMALS;
  return weights.map((w) => Math.round((w / total) * scale) / scale);
}

function scopeName(scope: MarketDefinition['rule']['scope']): string {
  return scope === 'all' ? 'all sectors' : sectorInfo(scope).name;
}

export function resolutionPeriod(def: MarketDefinition): PeriodRef {
  return periodContaining(new Date(`${def.resolves_on}T12:00:00Z`));
}

export function marketQuestion(def: MarketDefinition): string {
  const period = resolutionPeriod(def);
  return def.rule.scope === 'all'
    ? `Which startup will rank #1 across all sectors in ${period.name} (${period.slug})?`
    : `Which ${scopeName(def.rule.scope)} startup will rank #1 in its sector in ${period.name} (${period.slug})?`;
}

export function candidateRuleText(def: MarketDefinition): string {
  const scope = def.rule.scope === 'all' ? 'across all sectors' : `in ${scopeName(def.rule.scope)}`;
  return `The top ${def.rule.top} ${scope} by composite signal in the current period's published ranking (startups above the activity floor first).`;
}

export function marketStatus(def: MarketDefinition, current: PeriodRef): Market['status'] {
  if (comparePeriods(current, periodContaining(new Date(`${def.opens_on}T12:00:00Z`))) < 0) return 'upcoming';
  if (comparePeriods(current, resolutionPeriod(def)) < 0) return 'open';
  return 'resolved';
}

/** The scope's startups in ranking order: trending order across sectors, sector order within one. */
function ranked(snapshot: Snapshot, scope: 'all' | SectorSlug): SnapshotStartup[] {
  if (scope !== 'all') return snapshot.bySector.get(scope) ?? [];
  return snapshot.startups.filter((s) => s.rankOverall !== null).sort((a, b) => a.rankOverall! - b.rankOverall!);
}

/** A resolved market's winner: the startup ranked #1 in the scope in the resolution period. */
export interface MarketWinner {
  login: string;
  name: string;
  compositeScore: number;
}

export function marketSummary(def: MarketDefinition, baseUrl: string): MarketSummary {
  return { slug: def.slug, question: marketQuestion(def), url: siteUrls(baseUrl).api(`/api/markets/${def.slug}`) };
}

/**
 * One market computed from `snapshot`. `winner` is undefined while the market is not resolved, null when it is
 * resolved but its period holds no ranked startup in the scope (or is not stored).
 */
export function buildMarket(
  def: MarketDefinition,
  snapshot: Snapshot,
  baseUrl: string,
  winner?: MarketWinner | null,
): Market {
  const urls = siteUrls(baseUrl);
  const candidates = ranked(snapshot, def.rule.scope).slice(0, def.rule.top);
  const probabilities = impliedProbabilities(candidates.map((c) => c.scores.composite));
  const period = resolutionPeriod(def);
  const status = marketStatus(def, parsePeriodSlug(snapshot.period.slug));
  const sourceOfTruth = resolveSiteUrl(baseUrl, def.source_of_truth_path);
  return {
    slug: def.slug,
    question: marketQuestion(def),
    resolver: def.resolver,
    sourceOfTruth,
    opensOn: def.opens_on,
    resolvesOn: def.resolves_on,
    resolutionPeriod: period.slug,
    status,
    candidateRule: candidateRuleText(def),
    rule: { ...def.rule },
    probabilityFormula: PROBABILITY_FORMULA,
    period: { slug: snapshot.period.slug, name: snapshot.period.name },
    synthetic: snapshot.synthetic,
    candidates: candidates.map((c, i) => ({
      position: i + 1,
      login: c.login,
      name: c.startup.name,
      sector: c.sector,
      compositeScore: c.scores.composite,
      impliedProbability: probabilities[i]!,
      scores: { ...c.scores },
      rankInSector: c.rankInSector,
      rankOverall: c.rankOverall,
      signal: c.startup,
      url: urls.startup(c.login),
    })),
    resolution:
      status === 'resolved'
        ? { period: period.slug, winner: winner ? { ...winner } : null, sourceUrl: sourceOfTruth }
        : null,
    url: urls.api(`/api/markets/${def.slug}`),
  };
}

/** A stored period's startups (as its source answers them) → the scope's #1, if any. */
export function winnerOf(
  def: MarketDefinition,
  startups: readonly (Pick<PeriodStartup, 'login' | 'sector' | 'rankOverall' | 'rankInSector' | 'compositeScore'> & {
    startup: Pick<PeriodStartup['startup'], 'name'>;
  })[],
): MarketWinner | null {
  const top =
    def.rule.scope === 'all'
      ? startups.find((s) => s.rankOverall === 1)
      : startups.find((s) => s.sector === def.rule.scope && s.rankInSector === 1);
  if (!top) return null;
  return { login: top.login, name: top.startup.name, compositeScore: top.compositeScore };
}

/** The #1 of the scope in the snapshot itself (when the snapshot is the resolution period). */
export function winnerFromSnapshot(def: MarketDefinition, snapshot: Snapshot): MarketWinner | null {
  const top = ranked(snapshot, def.rule.scope)[0];
  if (!top || (def.rule.scope === 'all' && top.rankOverall !== 1)) return null;
  return { login: top.login, name: top.startup.name, compositeScore: top.scores.composite };
}

/**
 * A market's winner as of `snapshot`: undefined while it is not resolved; from the snapshot itself when it is the
 * resolution period; otherwise from that stored period's startups (`load`), or null when that period is not stored.
 */
export async function marketWinner(
  def: MarketDefinition,
  snapshot: Snapshot,
  load: (periodSlug: string) => Promise<Parameters<typeof winnerOf>[1]>,
): Promise<MarketWinner | null | undefined> {
  if (marketStatus(def, parsePeriodSlug(snapshot.period.slug)) !== 'resolved') return undefined;
  const slug = resolutionPeriod(def).slug;
  if (slug === snapshot.period.slug) return winnerFromSnapshot(def, snapshot);
  if (!snapshot.periods.some((p) => p.slug === slug)) return null;
  return winnerOf(def, await load(slug));
}

/**
 * The prediction markets of the published content, each computed once per period (a resolved market's winner may
 * need an earlier stored period's rows): what GET /api/markets/{slug} and the Markets page both read.
 */
export class MarketsService {
  readonly definitions: readonly MarketDefinition[];
  /** The markets that exist, for a 404's list and the site. */
  readonly summaries: readonly MarketSummary[];
  private readonly computed: (snapshot: Snapshot) => Promise<Map<string, Market>>;

  constructor(documentsDir: string, baseUrl: string) {
    const definitions = readMarkets(documentsDir).markets;
    this.definitions = definitions;
    this.summaries = definitions.map((d) => marketSummary(d, baseUrl));
    this.computed = deriveAsync(async (snapshot) => {
      const markets = new Map<string, Market>();
      for (const def of definitions) {
        const winner = await marketWinner(def, snapshot, (slug) => snapshot.source.periodStartups(slug));
        markets.set(def.slug, buildMarket(def, snapshot, baseUrl, winner));
      }
      return markets;
    });
  }

  /** Every market as of `snapshot`, in the content's order. Rejects when a stored period cannot be read. */
  all(snapshot: Snapshot): Promise<Map<string, Market>> {
    return this.computed(snapshot);
  }
}
