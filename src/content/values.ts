import { DATA_LICENSE, INTERFACE_VERSION } from '../domain/license.js';
import { backtestStatusSentence } from '../core/backtest/report.js';
import { MARKET_TEMPERATURE } from '../core/markets/markets.js';
import {
  CREDITS_PER_MATCHED_CALL,
  DEEP_SIGNAL_CREDIT_PACK,
  formatMinor,
  SOLANA_CREDIT_PACK,
  X402_PAY_PER_CALL,
} from '../core/documents/pricing.js';
import { sectors } from '../domain/sectors.js';
import { DEMO_PERIODS, DEMO_STARTUPS } from '../pipeline/demo/seed.js';
import {
  COMMIT_CHANGE_FLOOR,
  COMPOSITE_WEIGHTS,
  CONTRIBUTOR_CHANGE_FLOOR,
  DEPLOY_DAYS_CHANGE_FLOOR,
  DEPLOY_SPIKE_MIN_CHANGE_PCT,
  DEPLOY_SPIKE_MIN_DAYS,
  FRAMEWORK_MIGRATION_MIN_COMMITS,
  FRAMEWORK_MIGRATION_MIN_SHIFT_PCT,
  FRAMEWORK_MIGRATION_NOISE_PCT,
  HIRING_BURST_MIN_GROWTH_PCT,
  HIRING_BURST_MIN_NEW_CONTRIBUTORS,
  HIRING_BURST_MIN_NEW_REGULARS,
  HIRING_BURST_MIN_NEW_SHARE_PCT,
  NEW_CONTRIBUTOR_JOIN_DAYS,
  NEW_CONTRIBUTOR_LOOKBACK_DAYS,
  NEW_REGULAR_MIN_COMMITS,
  NEW_REGULAR_MIN_DAYS,
  INFRA_BUILDOUT_MIN_CHANGE_PCT,
  INFRA_BUILDOUT_MIN_COMMITS,
  INFRA_BUILDOUT_MIN_NEW_REPOS,
  INFRA_COMMIT_CHANGE_FLOOR,
  SIGNAL_TIE_ORDER,
  LOOKBACK_DAYS,
  MIN_COMMITS_FOR_RANKING,
  MIN_CONTRIBUTORS_FOR_RANKING,
  NEW_REPO_DAYS,
  TRENDING_SIZE,
  WINDOW_DAYS,
} from '../domain/rules.js';
import { ASK_LIMIT, DILIGENCE_COMPANY_MAX, QUERY_MAX, SEARCH_LIMIT } from '../schemas/answers.js';
import { MIN_CONFIDENCE } from '../core/answers/confidence.js';

/**
 * The numbers that FAQ answers, blog posts and glossary terms quote, taken from the code that enforces them. Content files write
 * `{{NAME}}` and get the value, so a changed rule changes the text. An unknown name stops the start.
 *
 * Prices come from core/documents/pricing.ts (the one source the pricing document and the payment routes use). The rate limits
 * are the interface specification's constants (its Limits section), which the rate-limit code must enforce.
 */
export const CONTENT_VALUES: Readonly<Record<string, string | number>> = {
  WINDOW_DAYS,
  LOOKBACK_DAYS,
  NEW_REPO_DAYS,
  COMMIT_CHANGE_FLOOR,
  CONTRIBUTOR_CHANGE_FLOOR,
  MIN_COMMITS_FOR_RANKING,
  MIN_CONTRIBUTORS_FOR_RANKING,
  TRENDING_SIZE,
  HIRING_BURST_MIN_GROWTH_PCT,
  HIRING_BURST_MIN_NEW_CONTRIBUTORS,
  HIRING_BURST_MIN_NEW_REGULARS,
  HIRING_BURST_MIN_NEW_SHARE_PCT,
  NEW_CONTRIBUTOR_JOIN_WEEKS: NEW_CONTRIBUTOR_JOIN_DAYS / 7,
  NEW_CONTRIBUTOR_LOOKBACK_MONTHS: Math.round(NEW_CONTRIBUTOR_LOOKBACK_DAYS / 30.4),
  NEW_REGULAR_MIN_COMMITS,
  NEW_REGULAR_MIN_DAYS,
  INFRA_BUILDOUT_MIN_NEW_REPOS,
  INFRA_BUILDOUT_MIN_COMMITS,
  INFRA_BUILDOUT_MIN_CHANGE_PCT,
  INFRA_COMMIT_CHANGE_FLOOR,
  DEPLOY_SPIKE_MIN_DAYS,
  DEPLOY_SPIKE_MIN_CHANGE_PCT,
  DEPLOY_DAYS_CHANGE_FLOOR,
  FRAMEWORK_MIGRATION_MIN_SHIFT_PCT,
  FRAMEWORK_MIGRATION_NOISE_PCT,
  FRAMEWORK_MIGRATION_MIN_COMMITS,
  SIGNAL_TIE_ORDER: SIGNAL_TIE_ORDER.join(', '),
  WEIGHT_GROWTH: COMPOSITE_WEIGHTS.growth,
  WEIGHT_VELOCITY: COMPOSITE_WEIGHTS.velocity,
  WEIGHT_NOVELTY: COMPOSITE_WEIGHTS.novelty,
  SECTOR_COUNT: sectors.length,
  SECTOR_SLUGS: sectors.map((s) => s.slug).join(', '),
  DEMO_STARTUPS,
  DEMO_PERIODS,
  MIN_CONFIDENCE,
  QUERY_MAX,
  ASK_LIMIT_MAX: ASK_LIMIT.max,
  ASK_LIMIT_DEFAULT: ASK_LIMIT.default,
  SEARCH_LIMIT_MAX: SEARCH_LIMIT.max,
  SEARCH_LIMIT_DEFAULT: SEARCH_LIMIT.default,
  DILIGENCE_COMPANY_MAX,
  SIGNAL_COMPANY_MAX: 80,
  TOOL_NAME_MAX: 100,
  LICENSE_NAME: DATA_LICENSE.name,
  LICENSE_URL: DATA_LICENSE.url,
  INTERFACE_VERSION,
  CREDIT_PACK_CREDITS: DEEP_SIGNAL_CREDIT_PACK.credits,
  CREDIT_PACK_PRICE_EUR: DEEP_SIGNAL_CREDIT_PACK.priceCents / 100,
  CREDIT_PACK_PRICE_EUR_CENTS: formatMinor(DEEP_SIGNAL_CREDIT_PACK.priceCents),
  CREDITS_PER_MATCHED_CALL,
  MARKET_TEMPERATURE,
  CREDIT_PRICE_EUR: formatMinor(Math.round(DEEP_SIGNAL_CREDIT_PACK.priceCents / DEEP_SIGNAL_CREDIT_PACK.credits)),
  X402_PRICE_USD: formatMinor(X402_PAY_PER_CALL.priceCents),
  SOLANA_PACK_UNITS: SOLANA_CREDIT_PACK.priceCents / 100,
  SOLANA_PACK_CREDITS: SOLANA_CREDIT_PACK.credits,
  RATE_DEFAULT_PER_MIN: 60,
  RATE_DEFAULT_BURST: 120,
  RATE_SIGNAL_PER_MIN: 30,
  RATE_SIGNAL_BURST: 60,
  RATE_RECEIPTS_PER_MIN: 10,
  RATE_RECEIPTS_BURST: 20,
  CACHE_SHARED_SECONDS: 3600,
  // The published backtest's one-sentence summary, or why there is none: read from its files at start.
  BACKTEST_STATUS: backtestStatusSentence(),
};

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Names used in `text` that CONTENT_VALUES (plus `extra`) does not define. */
export function unknownPlaceholders(text: string, extra: readonly string[] = []): string[] {
  return [...text.matchAll(PLACEHOLDER)]
    .map((m) => m[1]!)
    .filter((name) => !(name in CONTENT_VALUES) && !extra.includes(name));
}

/** Replaces every `{{NAME}}` with its value from CONTENT_VALUES or `extra`. */
export function interpolate(text: string, extra: Readonly<Record<string, string | number>> = {}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = extra[name] ?? CONTENT_VALUES[name];
    return value === undefined ? whole : String(value);
  });
}
