import { z } from 'zod';
import { GITHUB_USERNAME_PATTERN } from '../agents/registry.js';
import { SectorSlug } from './enums.js';
import { Startup } from './signals.js';

/** A GitHub login as GitHub accepts it: 1–39 characters, alphanumeric with single interior hyphens. */
export const GitHubUsername = z
  .string()
  .min(1)
  .max(39)
  .regex(GITHUB_USERNAME_PATTERN)
  .describe('GitHub username: 1–39 characters, alphanumeric with single interior hyphens, starting alphanumeric.');

export const MILESTONE_TYPES = ['ipo', 'acquisition', 'priced-round'] as const;
export const MilestoneType = z.enum(MILESTONE_TYPES).meta({
  id: 'MilestoneType',
  description: 'ipo (first trading day), acquisition (announcement), priced-round (at or above a stated valuation).',
});
export type MilestoneType = z.infer<typeof MilestoneType>;

export const SCOUT_RANKS = ['curious', 'scout', 'sharp', 'elite', 'oracle'] as const;
export const ScoutRank = z.enum(SCOUT_RANKS).meta({ id: 'ScoutRank' });
export type ScoutRank = z.infer<typeof ScoutRank>;

/** One validated company: a public GitHub organisation and a dated, sourced milestone. */
export const ValidatedCompany = z
  .object({
    company: z.string().trim().min(1).max(100),
    org: z.string().regex(GITHUB_USERNAME_PATTERN),
    repository: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/)
      .refine((v) => v !== '.' && v !== '..'),
    milestone: MilestoneType,
    date: z.iso.date(),
    detail: z.string().trim().min(1).max(200),
    source: z.url({ protocol: /^https$/ }),
  })
  .meta({
    id: 'ValidatedCompany',
    description: 'A company with a public GitHub organisation and a sourced milestone.',
  });
export type ValidatedCompany = z.infer<typeof ValidatedCompany>;

export const EarlyCall = z
  .object({
    company: z.string(),
    org: z.string().describe('GitHub organisation whose repository was starred.'),
    repository: z.string().describe('The repository the user starred first (owner/name).'),
    starredAt: z.iso.datetime(),
    milestone: z.object({
      type: MilestoneType,
      date: z.iso.date(),
      detail: z.string(),
      source: z.url(),
    }),
    leadDays: z.int().min(0).describe('Days between the star and the milestone.'),
    points: z.number().min(0).describe('Points this call earned (see the formula).'),
  })
  .meta({ id: 'EarlyCall', description: 'A validated company the user starred before its milestone.' });
export type EarlyCall = z.infer<typeof EarlyCall>;

export const ScoutReceipts = z
  .object({
    username: z.string(),
    score: z.int().min(0).max(100),
    rank: ScoutRank,
    topEarlyCalls: z.array(EarlyCall).max(5).describe('The best calls, most points first (at most 5).'),
    personality: z.string().describe('A summary of the starring profile, derived from the data.'),
    cardUrl: z.url().describe('Shareable SVG card of these receipts on this service.'),
    badgeUrl: z.url().describe('SVG badge with the score and rank.'),
    stats: z.object({
      earlyCalls: z.int().min(0).describe('Validated companies starred before their milestone (at least 30 days).'),
      lateStars: z.int().min(0).describe('Validated companies starred only after (or just before) their milestone.'),
      points: z.number().min(0).describe('Sum of the points of every early call.'),
      starsAnalysed: z.int().min(0),
      starsTruncated: z.boolean().describe('True when the user has more stars than the pages read (oldest first).'),
      validatedCompanies: z.int().min(0).describe('Size of the validated-company list the score is measured on.'),
    }),
    formula: z.string().describe('The scoring formula in one paragraph.'),
    fetchedAt: z.iso.datetime().describe('When the starring history was last read from GitHub.'),
    computedAt: z.iso.datetime(),
  })
  .meta({ id: 'ScoutReceipts', description: 'Scout Score receipts of a GitHub user.' });
export type ScoutReceipts = z.infer<typeof ScoutReceipts>;

export const ScoutPrediction = z
  .object({
    rank: z.int().min(1),
    org: z.string().describe('GitHub organisation of the tracked startup.'),
    likelihood: z.int().min(0).max(100).describe('Relative fit of the starring profile to this startup (0–100).'),
    reasons: z.array(z.string()).min(1).describe('Why this startup fits the profile.'),
    sector: SectorSlug,
    compositeScore: z.int().min(0).max(100).describe("The startup's composite signal score this period."),
    signal: Startup,
  })
  .meta({ id: 'ScoutPrediction' });
export type ScoutPrediction = z.infer<typeof ScoutPrediction>;

export const ScoutPredictions = z
  .object({
    username: z.string(),
    experimental: z.literal(true),
    method: z.string(),
    period: z.object({ slug: z.string(), name: z.string() }),
    profile: z.object({
      starsAnalysed: z.int().min(0),
      topLanguages: z.array(z.object({ name: z.string(), stars: z.int().min(1) })),
      topTopics: z.array(z.object({ name: z.string(), stars: z.int().min(1) })),
      sectors: z.array(z.object({ sector: SectorSlug, weight: z.number().min(0).max(1) })),
    }),
    predictions: z.array(ScoutPrediction),
    fetchedAt: z.iso.datetime(),
  })
  .meta({ id: 'ScoutPredictions', description: 'Tracked startups this user is most likely to be early on.' });
export type ScoutPredictions = z.infer<typeof ScoutPredictions>;

export const ReceiptsParams = z.object({ username: GitHubUsername }).strict();
export const PredictQuery = z.object({
  username: GitHubUsername,
  limit: z.coerce.number().int().min(1).max(20).default(10).describe('Predictions to return (1–20, default 10).'),
});
