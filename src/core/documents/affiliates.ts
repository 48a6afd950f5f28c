import { createHash } from 'node:crypto';
import { AffiliatesContent, type AffiliateProgram } from '../../schemas/documents.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { DocumentContentError, fillTemplate, readYamlContent, resolveSiteUrl } from './content.js';
import { DATA_LICENSE } from '../../domain/license.js';
import { DEEP_SIGNAL_CREDIT_PACK, formatMinor } from './pricing.js';
import { sectors } from '../../domain/sectors.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * The affiliate program: terms, swipe kit and records live in content/affiliates.yaml (updated monthly); the stats,
 * the offer ("bait") and the pseudonymised top-10 leaderboard are computed from the records and the current period.
 */
export const AFFILIATES_FILE = 'affiliates.yaml';
export const LEADERBOARD_SIZE = 10;

/** The placeholders swipe-kit texts may use. */
export function swipeValues(snapshot: Snapshot): Record<string, string | number> {
  return {
    startupsTracked: snapshot.startups.length,
    sectors: sectors.length,
    packCredits: DEEP_SIGNAL_CREDIT_PACK.credits,
    packPriceEur: formatMinor(DEEP_SIGNAL_CREDIT_PACK.priceCents),
  };
}

export function checkAffiliates(content: AffiliatesContent, where = AFFILIATES_FILE): AffiliatesContent {
  const ids = new Set<string>();
  for (const record of content.records) {
    if (ids.has(record.id)) throw new DocumentContentError(where, `duplicate affiliate id ${record.id}`);
    ids.add(record.id);
  }
  // Fail at start, not on the first request, when a swipe text names an unknown placeholder.
  const probe = { startupsTracked: 0, sectors: 0, packCredits: 0, packPriceEur: '0' };
  for (const text of [...content.swipe_kit.headlines, ...content.swipe_kit.blurbs]) fillTemplate(text, probe, where);
  return content;
}

export function readAffiliates(dir: string): AffiliatesContent {
  return checkAffiliates(readYamlContent(dir, AFFILIATES_FILE, AffiliatesContent));
}

/**
 * A stable public pseudonym for an affiliate: a digest of its opaque record id. Ids are internal (the schema forbids
 * e-mail addresses and names), so the leaderboard never shows who an affiliate is.
 */
export function affiliatePseudonym(id: string): string {
  return `affiliate-${createHash('sha256').update(`signal-service-affiliate:${id}`).digest('hex').slice(0, 8)}`;
}

type AffiliateRecord = AffiliatesContent['records'][number];

/** Top 10 by paid conversions, then sign-ups (both descending), then pseudonym. */
export function affiliateLeaderboard(records: readonly AffiliateRecord[]): AffiliateProgram['leaderboard'] {
  return records
    .map((r) => ({
      affiliate: affiliatePseudonym(r.id),
      signups: r.signups,
      paid_conversions: r.paid_conversions,
      sample: r.sample,
    }))
    .sort(
      (a, b) =>
        b.paid_conversions - a.paid_conversions ||
        b.signups - a.signups ||
        (a.affiliate < b.affiliate ? -1 : a.affiliate > b.affiliate ? 1 : 0),
    )
    .slice(0, LEADERBOARD_SIZE)
    .map((entry, i) => ({ position: i + 1, ...entry }));
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function buildAffiliateProgram(
  content: AffiliatesContent,
  snapshot: Snapshot,
  baseUrl: string,
): AffiliateProgram {
  const urls = siteUrls(baseUrl);
  const records = content.records;
  const signups = records.reduce((n, r) => n + r.signups, 0);
  const conversions = records.reduce((n, r) => n + r.paid_conversions, 0);
  const revenue = round2(records.reduce((n, r) => n + r.revenue_eur, 0));
  const values = swipeValues(snapshot);
  return {
    schema_version: content.schema_version,
    program_name: content.program_name,
    last_updated: content.last_updated,
    landing_page: resolveSiteUrl(baseUrl, content.landing_path),
    leaderboard_page: resolveSiteUrl(baseUrl, content.leaderboard_path),
    swipe_kit_page: resolveSiteUrl(baseUrl, content.swipe_kit_path),
    signup_url: resolveSiteUrl(baseUrl, content.signup_path),
    terms: { ...content.terms, currency: 'EUR' },
    bait: {
      headline: 'Free weekly engineering-acceleration signals, no key and no sign-up',
      startups_tracked: snapshot.startups.length,
      sectors: sectors.length,
      current_period: snapshot.period.slug,
      synthetic_demo_data: snapshot.synthetic,
      free_api_url: urls.api('/api/signals.json'),
      feed_url: urls.api('/feed.xml'),
      deep_signal_pack: {
        credits: DEEP_SIGNAL_CREDIT_PACK.credits,
        price: formatMinor(DEEP_SIGNAL_CREDIT_PACK.priceCents),
        currency: DEEP_SIGNAL_CREDIT_PACK.currency,
        pricing_url: urls.api('/api/v1/pricing.json'),
      },
    },
    program_stats: {
      as_of: content.last_updated,
      affiliates: records.length,
      sample_records: records.filter((r) => r.sample).length,
      active_affiliates: records.filter((r) => r.signups > 0).length,
      total_signups: signups,
      total_paid_conversions: conversions,
      conversion_rate_pct: signups === 0 ? null : Math.round((100 * conversions) / signups),
      referred_revenue_eur: revenue,
      commission_earned_eur: round2((revenue * content.terms.commission_pct) / 100),
    },
    swipe_kit: {
      headlines: content.swipe_kit.headlines.map((t) => fillTemplate(t, values, AFFILIATES_FILE)),
      blurbs: content.swipe_kit.blurbs.map((t) => fillTemplate(t, values, AFFILIATES_FILE)),
      disclosure: content.swipe_kit.disclosure,
      links: {
        signals: urls.api('/api/signals.json'),
        pricing: urls.api('/api/v1/pricing.json'),
        feed: urls.api('/feed.xml'),
      },
    },
    contact: { page: resolveSiteUrl(baseUrl, content.contact_path) },
    leaderboard: affiliateLeaderboard(records),
    prohibited_channels: [...content.prohibited_channels],
    license: `${DATA_LICENSE.name} (${DATA_LICENSE.url}): ${DATA_LICENSE.terms}`,
  };
}
