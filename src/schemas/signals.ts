import { z } from 'zod';
import { CollectionState, SectorSlug, SignalStrength, SignalType, Stage } from './enums.js';

/** Signed percent text: `+42%`, `-7%`, `+0%`. */
export const SignedPercent = z
  .string()
  .regex(/^[+-]\d+%$/)
  .meta({ id: 'SignedPercent', description: 'Signed whole-number percent change, e.g. "+42%", "-7%", "+0%".' });

export const Startup = z
  .object({
    name: z.string(),
    description: z.string(),
    stage: Stage,
    geography: z.string(),
    commitVelocity14d: z.int().min(0).describe('Total commits over the rolling 14-day window ending with the period.'),
    commitVelocityChange: SignedPercent.describe('Percent change of commits versus the prior 14-day window.'),
    contributors: z.int().min(0).describe('Unique human commit authors in the 14-day window.'),
    contributorGrowth: SignedPercent.describe('Percent change of unique human authors versus the prior 14-day window.'),
    newRepos: z.int().min(0).describe('Public repositories created in the last 30 days.'),
    signalType: SignalType,
    githubUrl: z.url(),
    websiteUrl: z.url(),
    linkedinUrl: z.url(),
  })
  .meta({ id: 'Startup', description: 'One tracked startup and its signal for the current period.' });
export type Startup = z.infer<typeof Startup>;

export const Sector = z
  .object({
    name: z.string(),
    slug: SectorSlug,
    description: z.string(),
    url: z.url(),
    startupCount: z.int().min(0),
    startups: z.array(Startup),
  })
  .meta({ id: 'Sector', description: 'One sector and its ranked startups.' });
export type Sector = z.infer<typeof Sector>;

export const Period = z
  .object({
    slug: z
      .string()
      .regex(/^\d{4}-w\d{2}$/)
      .describe('ISO week slug, e.g. 2026-w47.'),
    name: z.string().describe('Human name, e.g. "Week 47, 2026".'),
  })
  .meta({ id: 'Period' });

export const Meta = z
  .object({
    name: z.string(),
    period: Period,
    totalSectors: z.int().min(0),
    totalStartups: z.int().min(0),
    lastUpdated: z.iso.datetime(),
    citation: z.string(),
  })
  .meta({ id: 'Meta' });
export type Meta = z.infer<typeof Meta>;

export const SignalsResponse = z
  .object({
    meta: Meta,
    trending: z.array(Startup).max(20).describe('Top 20 across all sectors for the current period.'),
    sectors: z.array(Sector).describe('Per-sector rankings, one entry per sector slug.'),
  })
  .meta({ id: 'SignalsResponse' });
export type SignalsResponse = z.infer<typeof SignalsResponse>;

export const SignalCandidate = z
  .object({
    name: z.string().describe('Display name of the startup.'),
    org: z.string().describe('Its GitHub organisation slug: ask again with it to get its signal.'),
    why: z
      .string()
      .describe('Why it is offered: the same name as another startup, a typo beyond the allowance, a shared word.'),
  })
  .meta({ id: 'SignalCandidate' });
export type SignalCandidate = z.infer<typeof SignalCandidate>;

export const SignalMiss = z
  .object({
    found: z.literal(false),
    candidates: z
      .array(SignalCandidate)
      .optional()
      .describe(
        'Beyond the interface contract: "did you mean" startups when the name is ambiguous or close to one; absent when nothing is close. Never substituted for the answer.',
      ),
  })
  .meta({ id: 'SignalMiss', description: 'No tracked startup matches the query (not an error).' });

/**
 * The evidence behind a record's signalType. Beyond the interface contract, so never inside a Startup object: records
 * that carry a signal type carry these beside it (dataset lines, CSV rows, Deep Signal, the agent tools' results).
 */
export const signalLabelFields = {
  signalStrength: SignalStrength,
  signalEvidence: z
    .string()
    .describe(
      'The evidence behind signalType in one line: the type, its strength and what was measured for it; for strength none, that there was no clear signal.',
    ),
  signalFinding: z
    .string()
    .describe(
      'What the record says in a few words: signalType when evidence supports it (strength strong or weak), otherwise "No clear signal this week" — signalType then holds a placeholder, not a finding.',
    ),
};

/**
 * Whether the record's organisation was collected completely that week. Beyond the interface contract, so never
 * inside a Startup object: dataset lines, CSV rows and Deep Signal carry them beside it.
 */
export const collectionFields = {
  collection: CollectionState,
  collectionNote: z
    .string()
    .nullable()
    .describe(
      "When collection is partial, what GitHub's answer left out, in one line (the record was computed from the rest); null otherwise.",
    ),
};

const link = z.url();

/** What a label's counts rest on, each with its link on GitHub (src/domain/evidence-links.ts). */
export const EvidenceDetails = z
  .object({
    people: z.array(
      z.object({
        login: z.string().nullable(),
        url: link.nullable(),
        kind: z.enum(['new', 'returning']),
        regular: z.boolean(),
        firstCommit: z.string(),
        commits: z.int().min(0),
        activeDays: z.int().min(0),
        lastSeenBefore: z.string().nullable(),
        address: z
          .enum(['organisation', 'outside'])
          .nullable()
          .optional()
          .describe(
            "New people: 'organisation' when they committed from the organisation's own e-mail domain, 'outside' when from elsewhere while its team commits from its own (outside help, not counted as a hire), null when not known; absent when the week's activity holds no address kinds or the organisation has no domain of its own. No address or domain is published.",
          ),
      }),
    ),
    events: z.array(
      z.object({
        repo: z.string(),
        kind: z.enum(['release', 'tag', 'deployment']),
        name: z.string(),
        date: z.string(),
        url: link,
      }),
    ),
    newRepositories: z.array(z.object({ name: z.string(), url: link })),
    repositories: z
      .array(
        z.object({
          name: z.string(),
          url: link,
          commits: z.int().min(0).describe('Human commits of the current 14-day window (merges and automation apart).'),
          commitsPrior: z.int().min(0).describe('The same in the prior 14-day window.'),
        }),
      )
      .describe(
        "The repositories carrying the window's work, most commits first (at most 10; empty before rule evidence-v3).",
      ),
    infrastructurePaths: z.array(z.object({ repo: z.string(), path: z.string(), url: link })),
    languageMove: z.object({ from: z.string(), to: z.string(), files: z.int().min(0) }).nullable(),
    frameworksReplaced: z.array(z.object({ kind: z.string(), from: z.string(), to: z.string() })),
  })
  .meta({ id: 'EvidenceDetails' });

/** How the record's stage is known (beyond the interface contract: beside a Startup object, never inside it). */
export const stageFields = {
  stageSource: z
    .union([z.enum(['estimated', 'watchlist']), z.url({ protocol: /^https$/ })])
    .describe(
      'How the stage is known: "estimated" (from the number of public committers over 28 days, which says little about funding), "watchlist" (the watchlist states it without a source), or the https URL of the public page stating it.',
    ),
};

export const SignalLabel = z
  .object({
    name: z.string().describe('Display name of the startup (the Startup object beside it).'),
    signalType: SignalType,
    ...signalLabelFields,
    ...stageFields,
  })
  .meta({
    id: 'SignalLabel',
    description:
      "A startup's signal type with its strength and evidence, and how its stage is known (beside its Startup object, never inside it).",
  });
export type SignalLabel = z.infer<typeof SignalLabel>;

/** One line of /api/dataset.jsonl: a startup in one period. */
export const DatasetRecord = z
  .object({
    period: z.string().describe('ISO week slug of the period.'),
    periodName: z.string(),
    org: z.string().describe('GitHub organisation login.'),
    sector: SectorSlug,
    rank: z
      .int()
      .min(1)
      .nullable()
      .describe(
        'Rank across all sectors; null below the minimum-activity floor or without evidence for its signal type (signalStrength none).',
      ),
    sectorRank: z.int().min(1).describe('Position within the sector ranking.'),
    compositeScore: z.int().min(0).max(100),
    synthetic: z
      .boolean()
      .describe(
        'True for the synthetic demo dataset: a fictional startup with generated activity, not a real company.',
      ),
    ...Startup.shape,
    ...signalLabelFields,
    ...collectionFields,
    ...stageFields,
    evidenceDetails: EvidenceDetails.describe(
      'What the signal label rests on, with links on GitHub: new and returning people by public login (never a name or an e-mail address), the window releases, tags and deployments, new repositories, infrastructure paths, files moved between languages and frameworks replaced. Empty lists for weeks collected before these were recorded.',
    ),
  })
  .meta({ id: 'DatasetRecord', description: 'One startup in one period (one line of the JSONL dataset).' });
export type DatasetRecord = z.infer<typeof DatasetRecord>;

/**
 * A stored Startup (jsonb keeps its own key order) rebuilt in the interface's field order, and validated on the way.
 */
export function canonicalStartup(value: unknown): Startup {
  return Startup.parse(value);
}
