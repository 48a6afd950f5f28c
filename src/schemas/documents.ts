import { z } from 'zod';
import { SECTOR_SLUGS } from './enums.js';
import { Startup } from './signals.js';

/**
 * The published documents: changelog, methodology, glossary, pricing, members ledger, affiliate program, brand
 * guide, agents catalog and markets. Two kinds of schema live here: the shapes the API answers (with `.meta({ id })`,
 * so they name OpenAPI components) and the shapes of the human-written content files in content/, checked at start.
 */

const IsoDate = z.iso.date();
const ContentSlug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lower-case slug like my-slug');
const SEMVER = /^\d+\.\d+\.\d+$/;
/** A site path ("/methodology") or an absolute http(s) URL. */
const PathOrUrl = z
  .string()
  .trim()
  .refine((v) => /^\/(?!\/)\S*$/.test(v) || /^https?:\/\/\S+$/.test(v), {
    message: 'must be a site path starting with / or an absolute http(s) URL',
  });

// ---------------------------------------------------------------------------------------------------------------
// Changelog
// ---------------------------------------------------------------------------------------------------------------

export const ChangelogContent = z
  .object({
    releases: z
      .array(
        z
          .object({
            version: z.string().regex(SEMVER, 'must be a semantic version like 1.4.0'),
            date: IsoDate,
            title: z.string().trim().min(3).max(120),
            changes: z.array(z.string().trim().min(3).max(600)).min(1),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();
export type ChangelogContent = z.infer<typeof ChangelogContent>;

export const ChangelogRelease = z
  .object({
    version: z.string(),
    date: IsoDate,
    title: z.string(),
    changes: z.array(z.string()),
  })
  .meta({ id: 'ChangelogRelease', description: 'An interface release, from the human-written release log.' });

export const ChangelogPeriod = z
  .object({
    slug: z.string().describe('ISO week slug, e.g. 2026-w47.'),
    name: z.string(),
    dataset: z.string().describe('`github` for collected data, `synthetic-demo` for the fictional demo dataset.'),
    datasetName: z.string(),
    startupsTracked: z.int().min(0),
    publishedAt: z.iso.datetime(),
    url: z.url().describe('The period page.'),
  })
  .meta({ id: 'ChangelogPeriod', description: 'A published data period, read from the store.' });

export const Changelog = z
  .object({
    name: z.string(),
    url: z.url(),
    interfaceVersion: z.string(),
    revisionDate: IsoDate,
    license: z.url(),
    lastModified: z.iso.datetime(),
    releases: z.array(ChangelogRelease).describe('Interface releases, newest first.'),
    periods: z.array(ChangelogPeriod).describe('Published data periods, newest first.'),
  })
  .meta({ id: 'Changelog', description: 'Interface releases and published data periods.' });
export type Changelog = z.infer<typeof Changelog>;

// ---------------------------------------------------------------------------------------------------------------
// Methodology (schema.org HowTo)
// ---------------------------------------------------------------------------------------------------------------

export const METHODOLOGY_STEP_NAMES = ['collect', 'filter', 'normalise', 'accelerate', 'classify', 'rank'] as const;

export const MethodologyStep = z
  .object({
    '@type': z.literal('HowToStep'),
    position: z.int().min(1).max(6),
    name: z.enum(METHODOLOGY_STEP_NAMES),
    headline: z.string(),
    text: z.string(),
    url: z.url(),
    formulas: z.array(z.string()),
    code: z.array(z.string()).describe('Source files implementing the stage.'),
  })
  .meta({ id: 'MethodologyStep' });

export const Methodology = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('HowTo'),
    name: z.string(),
    description: z.string(),
    url: z.url(),
    inLanguage: z.literal('en'),
    version: z.string(),
    license: z.url(),
    step: z.array(MethodologyStep).length(6),
  })
  .meta({ id: 'Methodology', description: 'The six-stage pipeline as a schema.org HowTo.' });
export type Methodology = z.infer<typeof Methodology>;

// ---------------------------------------------------------------------------------------------------------------
// Glossary (schema.org DefinedTermSet)
// ---------------------------------------------------------------------------------------------------------------

export const GLOSSARY_SIZE = 18;

export const GlossaryContent = z
  .object({
    terms: z
      .array(
        z
          .object({
            slug: ContentSlug,
            name: z.string().trim().min(2).max(80),
            description: z.string().trim().min(20).max(800),
            usedIn: z.array(z.string().trim().min(3)).min(1),
          })
          .strict(),
      )
      .length(GLOSSARY_SIZE),
  })
  .strict();
export type GlossaryContent = z.infer<typeof GlossaryContent>;

export const GlossaryTerm = z
  .object({
    '@type': z.literal('DefinedTerm'),
    '@id': z.url(),
    termCode: z.string(),
    name: z.string(),
    description: z.string(),
    url: z.url(),
    inDefinedTermSet: z.url(),
    usedIn: z.array(z.string()).describe('Where the API uses the term: Schema.field or Enum.value.'),
  })
  .meta({ id: 'GlossaryTerm' });

export const Glossary = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('DefinedTermSet'),
    '@id': z.url(),
    name: z.string(),
    description: z.string(),
    url: z.url(),
    inLanguage: z.literal('en'),
    license: z.url(),
    hasDefinedTerm: z.array(GlossaryTerm).length(GLOSSARY_SIZE),
  })
  .meta({ id: 'Glossary', description: 'The 18 terms the API uses, as a schema.org DefinedTermSet.' });
export type Glossary = z.infer<typeof Glossary>;

// ---------------------------------------------------------------------------------------------------------------
// Pricing
// ---------------------------------------------------------------------------------------------------------------

export const PRICING_TIER_SLUGS = [
  'free',
  'deep-signal-credit-pack',
  'x402-pay-per-call',
  'solana-credit-pack',
] as const;

export const Money = z
  .object({
    amount: z
      .string()
      .regex(/^\d+\.\d{2}$/)
      .describe('Decimal amount with two decimals, e.g. "19.00".'),
    currency: z.enum(['EUR', 'USD']).describe('ISO 4217 code; stablecoin prices are in US dollars.'),
  })
  .meta({ id: 'Money' });

export const Settlement = z
  .object({
    asset: z.literal('USDC'),
    decimals: z.int(),
    atomicAmount: z.string().regex(/^\d+$/).describe('The amount in the token’s smallest unit.'),
    rail: z.string(),
  })
  .meta({ id: 'Settlement', description: 'How a stablecoin price is paid on chain.' });

export const PricingTier = z
  .object({
    slug: z.enum(PRICING_TIER_SLUGS).describe('Stable: slugs never change, prices may.'),
    name: z.string(),
    description: z.string(),
    price: Money,
    unit: z.enum(['free', 'pack', 'call']),
    credits: z.int().min(0).nullable().describe('Credits granted by one purchase; null when the tier has none.'),
    pricePerCall: Money.nullable(),
    settlement: Settlement.nullable(),
    authentication: z.string(),
    endpoints: z.array(z.object({ method: z.enum(['GET', 'POST']), url: z.url() })),
  })
  .meta({ id: 'PricingTier' });

export const Pricing = z
  .object({
    name: z.string(),
    url: z.url(),
    currency: z.literal('EUR').describe('The currency of the card-paid tiers.'),
    asOf: z.iso.datetime().describe('When these prices took effect.'),
    tiers: z.array(PricingTier),
    creditRules: z.object({
      creditsPerMatchedCall: z.int(),
      creditsPerMiss: z.int(),
      creditsExpire: z.boolean(),
      signatureRedeemableOnce: z.boolean(),
    }),
    purchaseUrl: z.url(),
  })
  .meta({ id: 'Pricing', description: 'Tiers with stable slugs, prices, currency and an as-of timestamp.' });
export type Pricing = z.infer<typeof Pricing>;

// ---------------------------------------------------------------------------------------------------------------
// Members ledger
// ---------------------------------------------------------------------------------------------------------------

export const MembersCohortContent = z
  .object({
    name: z.string().trim().min(3).max(120),
    total_seats: z.int().min(0).max(100_000),
    anonymity_rule: z.string().trim().min(10).max(600),
    version: z.string().trim().min(1).max(20),
    last_modified: IsoDate,
    hub_path: PathOrUrl,
    leaderboard_path: PathOrUrl,
    apply_path: PathOrUrl,
  })
  .strict();

const Handle = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/, 'must be a lower-case pseudonymous handle (letters, digits, -)');

export const MemberPickContent = z
  .object({
    startup: z.string().trim().min(1).max(39).describe('GitHub organisation login of a tracked startup.'),
    picked_on: IsoDate,
    window_weeks: z.int().min(1).max(52),
    thesis: z.string().trim().max(280).optional(),
  })
  .strict();

export const MembersContent = z
  .object({
    members: z.array(
      z
        .object({
          handle: Handle,
          joined: IsoDate,
          sample: z.boolean().describe('True for demonstration records that are not real members.'),
          picks: z.array(MemberPickContent).max(200),
        })
        .strict(),
    ),
  })
  .strict();
export type MembersContent = z.infer<typeof MembersContent>;
export type MembersCohortContent = z.infer<typeof MembersCohortContent>;

export const PICK_OUTCOMES = ['hit', 'miss', 'pending'] as const;

export const MemberPick = z.object({
  startup: z.string(),
  name: z.string().nullable().describe('Display name in the latest period that tracks it; null if never tracked.'),
  picked_on: IsoDate,
  window_weeks: z.int(),
  window_first_period: z.string(),
  window_last_period: z.string(),
  outcome: z.enum(PICK_OUTCOMES),
  outcome_period: z.string().nullable().describe('The period that decided a hit; null otherwise.'),
  outcome_rank: z.int().nullable(),
  source_url: z.url().describe('Where the outcome can be checked.'),
  thesis: z.string().nullable(),
});

export const Member = z
  .object({
    handle: z.string(),
    joined: IsoDate,
    sample: z.boolean(),
    picks: z.array(MemberPick),
    total_picks: z.int(),
    hits: z.int(),
    misses: z.int(),
    pending: z.int(),
  })
  .meta({ id: 'Member' });

export const LeaderboardEntry = z
  .object({
    position: z.int().min(1),
    handle: z.string(),
    hits: z.int(),
    closed_windows: z.int(),
    picks: z.int(),
    hit_rate_pct: z.int().nullable(),
    sample: z.boolean(),
  })
  .meta({ id: 'MembersLeaderboardEntry' });

export const MembersLedger = z
  .object({
    schema: z.url(),
    version: z.string(),
    license: z.url(),
    cohort: z.object({
      name: z.string(),
      total_seats: z.int(),
      seats_claimed: z.int(),
      seats_open: z.int(),
      hub_url: z.url(),
      leaderboard_url: z.url(),
      apply_url: z.url(),
      anonymity_rule: z.string(),
    }),
    aggregate: z.object({
      total_picks: z.int(),
      total_hits: z.int(),
      total_closed_windows: z.int(),
      cohort_hit_rate_pct: z.int().nullable(),
    }),
    members: z.array(Member),
    leaderboard: z
      .array(LeaderboardEntry)
      .describe('Sorted by hits, then closed windows, then picks (all descending), then handle.'),
    grading_rules: z.object({ hit: z.string(), miss: z.string(), pending: z.string() }),
    last_modified: IsoDate,
  })
  .strict()
  .meta({ id: 'MembersLedger', description: 'Members, their graded picks, the aggregate and the leaderboard.' });
export type MembersLedger = z.infer<typeof MembersLedger>;

// ---------------------------------------------------------------------------------------------------------------
// Affiliate program
// ---------------------------------------------------------------------------------------------------------------

const FreeForm = z.record(z.string(), z.unknown());

export const AffiliatesContent = z
  .object({
    schema_version: z.string().trim().min(1).max(20),
    program_name: z.string().trim().min(3).max(120),
    last_updated: IsoDate,
    landing_path: PathOrUrl,
    leaderboard_path: PathOrUrl,
    swipe_kit_path: PathOrUrl,
    signup_path: PathOrUrl,
    contact_path: PathOrUrl,
    terms: z
      .object({
        commission_pct: z.number().min(0).max(100),
        cookie_window_days: z.int().min(1).max(365),
        payout_minimum_eur: z.number().min(0),
        payout_schedule: z.string().trim().min(3),
        attribution: z.string().trim().min(3),
      })
      .strict(),
    swipe_kit: z
      .object({
        headlines: z.array(z.string().trim().min(3).max(200)).min(1),
        blurbs: z.array(z.string().trim().min(10).max(600)).min(1),
        disclosure: z.string().trim().min(10).max(300),
      })
      .strict(),
    prohibited_channels: z.array(z.string().trim().min(3).max(200)).min(1),
    records: z.array(
      z
        .object({
          id: z.string().regex(/^aff_[a-z0-9]{4,32}$/, 'must be an opaque id like aff_7k2m (never an e-mail or name)'),
          joined: IsoDate,
          signups: z.int().min(0),
          paid_conversions: z.int().min(0),
          revenue_eur: z.number().min(0),
          sample: z.boolean(),
        })
        .strict()
        .refine((r) => r.paid_conversions <= r.signups, { message: 'paid_conversions cannot exceed signups' }),
    ),
  })
  .strict();
export type AffiliatesContent = z.infer<typeof AffiliatesContent>;

export const AffiliateLeaderboardEntry = z
  .object({
    position: z.int().min(1),
    affiliate: z.string().describe('Pseudonym derived from the opaque affiliate id.'),
    signups: z.int(),
    paid_conversions: z.int(),
    sample: z.boolean(),
  })
  .meta({ id: 'AffiliateLeaderboardEntry' });

export const AffiliateProgram = z
  .object({
    schema_version: z.string(),
    program_name: z.string(),
    last_updated: IsoDate,
    landing_page: z.url(),
    leaderboard_page: z.url(),
    swipe_kit_page: z.url(),
    signup_url: z.url(),
    terms: FreeForm,
    bait: FreeForm,
    program_stats: FreeForm,
    swipe_kit: FreeForm,
    contact: FreeForm,
    leaderboard: z.array(AffiliateLeaderboardEntry).max(10),
    prohibited_channels: z.array(z.string()),
    license: z.string(),
  })
  .strict()
  .meta({ id: 'AffiliateProgram', description: 'Terms, stats and the pseudonymised top-10 leaderboard.' });
export type AffiliateProgram = z.infer<typeof AffiliateProgram>;

// ---------------------------------------------------------------------------------------------------------------
// Brand guide (social mascot)
// ---------------------------------------------------------------------------------------------------------------

export const MASCOT_TEMPLATE_VARIABLES = [
  'period',
  'periodSlug',
  'startupsTracked',
  'topName',
  'topSector',
  'topChange',
  'topSignalType',
  'hotSector',
  'hotSectorCount',
  'trendingSize',
  'signalsUrl',
  'feedUrl',
  'dataNote',
] as const;

export const BrandGuideContent = z
  .object({
    schema_version: z.string().trim().min(1).max(20),
    mascot_name: z.string().trim().min(2).max(60),
    bible_path: PathOrUrl,
    handles: z.record(z.string(), z.string()),
    handle_status: z.record(z.string(), z.string()),
    voice: FreeForm,
    tone: FreeForm,
    cadence: FreeForm,
    posting_hours_utc: FreeForm,
    hashtag_bank: FreeForm,
    pillars: z.array(FreeForm).min(1),
    sample_templates: z
      .array(
        z
          .object({
            pillar: z.string().trim().min(2),
            template: z.string().trim().min(10).max(600),
          })
          .strict(),
      )
      .min(1),
  })
  .strict()
  .refine((c) => Object.keys(c.handles).every((k) => k in c.handle_status), {
    message: 'every handle needs a handle_status entry',
  });
export type BrandGuideContent = z.infer<typeof BrandGuideContent>;

export const BrandGuide = z
  .object({
    schema_version: z.string(),
    mascot_name: z.string(),
    bible_page: z.url(),
    handles: z.record(z.string(), z.string()),
    handle_status: z.record(z.string(), z.string()),
    voice: FreeForm,
    tone: FreeForm,
    cadence: FreeForm,
    posting_hours_utc: FreeForm,
    hashtag_bank: FreeForm,
    sample_batch: FreeForm,
    pillars: z.array(FreeForm),
  })
  .strict()
  .meta({ id: 'BrandGuide', description: 'The social mascot’s brand guide, with a sample batch from this period.' });
export type BrandGuide = z.infer<typeof BrandGuide>;

// ---------------------------------------------------------------------------------------------------------------
// Methodology report (the `paper` citation)
// ---------------------------------------------------------------------------------------------------------------

export const PaperContent = z
  .object({
    title: z.string().trim().min(5).max(300),
    authors: z
      .array(
        z.union([
          z.object({ literal: z.string().trim().min(1).max(200) }).strict(),
          z.object({ given: z.string().trim().min(1).max(100), family: z.string().trim().min(1).max(100) }).strict(),
        ]),
      )
      .min(1),
    year: z.int().min(2000).max(2100),
    publisher: z.string().trim().min(1).max(200),
    url: PathOrUrl,
    doi: z
      .string()
      .regex(/^10\.\d{4,9}\/\S+$/, 'must be a DOI like 10.1234/abc')
      .nullable()
      .default(null),
  })
  .strict();
export type PaperContent = z.infer<typeof PaperContent>;

// ---------------------------------------------------------------------------------------------------------------
// Markets
// ---------------------------------------------------------------------------------------------------------------

export const MarketRule = z
  .object({
    scope: z.union([z.literal('all'), z.enum(SECTOR_SLUGS)]).describe('`all` or a sector slug.'),
    top: z.int().min(2).max(20).describe('How many of the current leaders are candidates.'),
  })
  .strict()
  .meta({
    id: 'MarketRule',
    description:
      'Candidates: the top N of the scope in the published ranking (by composite score, startups above the activity floor first).',
  });

export const MarketsContent = z
  .object({
    markets: z
      .array(
        z
          .object({
            slug: ContentSlug.max(80),
            resolver: z.string().trim().min(3).max(200),
            source_of_truth_path: PathOrUrl,
            opens_on: IsoDate,
            resolves_on: IsoDate,
            rule: MarketRule,
          })
          .strict()
          .refine((m) => m.opens_on <= m.resolves_on, { message: 'opens_on must not be after resolves_on' }),
      )
      .min(3),
  })
  .strict()
  .refine((c) => new Set(c.markets.map((m) => m.slug)).size === c.markets.length, {
    message: 'market slugs must be unique',
  });
export type MarketsContent = z.infer<typeof MarketsContent>;

export const MarketCandidate = z
  .object({
    position: z.int().min(1),
    login: z.string(),
    name: z.string(),
    sector: z.enum(SECTOR_SLUGS),
    compositeScore: z.int().min(0).max(100),
    impliedProbability: z.number().min(0).max(1),
    scores: z.object({ velocity: z.int(), growth: z.int(), novelty: z.int(), composite: z.int() }),
    rankInSector: z.int(),
    rankOverall: z.int().nullable(),
    signal: Startup,
    url: z.url(),
  })
  .meta({ id: 'MarketCandidate' });

export const MarketSummary = z
  .object({ slug: z.string(), question: z.string(), url: z.url() })
  .meta({ id: 'MarketSummary' });

export const Market = z
  .object({
    slug: z.string(),
    question: z.string(),
    resolver: z.string(),
    sourceOfTruth: z.url(),
    opensOn: IsoDate,
    resolvesOn: IsoDate,
    resolutionPeriod: z.string().describe('The ISO week whose published data resolves the market.'),
    status: z.enum(['upcoming', 'open', 'resolved']),
    candidateRule: z.string(),
    rule: MarketRule,
    probabilityFormula: z.string(),
    period: z.object({ slug: z.string(), name: z.string() }).describe('The period the candidates are computed from.'),
    synthetic: z.boolean().describe('True when computed from the synthetic demo dataset.'),
    candidates: z.array(MarketCandidate),
    resolution: z
      .object({
        period: z.string(),
        winner: z.object({ login: z.string(), name: z.string(), compositeScore: z.int() }).nullable(),
        sourceUrl: z.url(),
      })
      .nullable()
      .describe('Set once the resolution period is published.'),
    url: z.url(),
  })
  .meta({ id: 'Market', description: 'A prediction market with its candidates and implied probabilities.' });
export type Market = z.infer<typeof Market>;
export type MarketCandidate = z.infer<typeof MarketCandidate>;
export type MarketSummary = z.infer<typeof MarketSummary>;

// ---------------------------------------------------------------------------------------------------------------
// Agents catalog
// ---------------------------------------------------------------------------------------------------------------

export const AgentCatalogTool = z
  .object({
    name: z.string(),
    title: z.string(),
    description: z.string(),
    inputSchema: z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12) of the arguments.'),
    annotations: z.object({
      readOnlyHint: z.boolean(),
      idempotentHint: z.boolean(),
      destructiveHint: z.boolean(),
      openWorldHint: z.boolean(),
    }),
    rest: z.object({ method: z.enum(['GET', 'POST', 'DELETE']), url: z.url(), note: z.string() }),
    paid: z.boolean(),
  })
  .meta({ id: 'AgentCatalogTool' });

export const AgentCatalog = z
  .object({
    name: z.string(),
    description: z.string(),
    version: z.string(),
    url: z.url(),
    documentation: z.url(),
    license: z.string(),
    surfaces: z.record(z.string(), z.record(z.string(), z.string())),
    authentication: z.record(z.string(), z.string()),
    tools: z.array(AgentCatalogTool).length(8),
    resources: z.array(z.object({ uri: z.string(), name: z.string(), description: z.string() })),
    pricing: z.url(),
  })
  .meta({ id: 'AgentCatalog', description: 'The agent skill catalog, generated from the tool registry.' });
export type AgentCatalog = z.infer<typeof AgentCatalog>;
