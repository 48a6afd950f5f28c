import { z } from 'zod';
import { SectorSlug, SignalStrength, SignalType, Stage } from './enums.js';
import {
  EvidenceDetails,
  SignalCandidate,
  SignedPercent,
  collectionFields,
  signalLabelFields,
  stageFields,
} from './signals.js';

/**
 * The paid Deep Signal payload. The interface names found, name, sector, stage, geography, signalType, scores and
 * rank; it describes a thesis, comparables, history and a charged count without naming them, so their names are
 * fixed here and kept stable.
 */

const score = (what: string) => z.int().min(0).max(100).describe(what);

export const DeepSignalScores = z
  .object({
    velocity: score('Percentile (0–100) of commits in the 14-day window among the startups of the same sector.'),
    growth: score(
      'Mean of the sector percentiles of the commit change and the contributor change versus the prior 14 days.',
    ),
    novelty: score('Percentile (0–100) of public repositories created in the last 30 days, within the sector.'),
    composite: score('round(0.5 × growth + 0.3 × velocity + 0.2 × novelty), the published composite weights.'),
  })
  .meta({ id: 'DeepSignalScores', description: 'Scores relative to the sector in the current period.' });

export const DeepSignalRank = z
  .object({
    inSector: z.int().min(1).describe('Position in the published sector ranking of the current period (1 = first).'),
    sectorTotal: z.int().min(1).describe('Startups tracked in the sector this period.'),
    sectorPercentile: z
      .int()
      .min(0)
      .max(100)
      .describe('round(100 × (sectorTotal − inSector) / (sectorTotal − 1)): 100 for the leader, 0 for the last.'),
  })
  .meta({ id: 'DeepSignalRank' });

export const DeepSignalComparable = z
  .object({
    name: z.string(),
    githubUrl: z.url(),
    stage: Stage,
    ...stageFields,
    signalType: SignalType,
    ...signalLabelFields,
    rankInSector: z.int().min(1),
    scores: DeepSignalScores,
    similarity: z
      .int()
      .min(0)
      .max(100)
      .describe('100 − Euclidean distance of the two (velocity, growth, novelty) score vectors, scaled to 0–100.'),
    reason: z.string().describe('Why this startup is comparable, in plain English, from the numbers.'),
  })
  .meta({ id: 'DeepSignalComparable', description: 'A sector peer with a similar signal profile.' });

export const DeepSignalHistoryEntry = z
  .object({
    period: z.string().describe('ISO week slug, e.g. 2026-w47.'),
    periodName: z.string(),
    sector: SectorSlug,
    rankInSector: z.int().min(1),
    rankOverall: z.int().min(1).nullable().describe('Rank across all sectors; null below the activity floor.'),
    compositeScore: z.int().min(0).max(100).describe('The published composite score of that period.'),
    commitVelocity14d: z.int().min(0),
    commitVelocityChange: SignedPercent,
    contributors: z.int().min(0),
    contributorGrowth: SignedPercent,
    newRepos: z.int().min(0),
    signalType: SignalType,
    ...signalLabelFields,
  })
  .meta({ id: 'DeepSignalHistoryEntry', description: 'The startup in one stored period.' });

export const DeepSignal = z
  .object({
    found: z.literal(true),
    name: z.string(),
    sector: SectorSlug,
    stage: Stage,
    ...stageFields,
    geography: z.string(),
    signalType: SignalType,
    ...signalLabelFields,
    ...collectionFields,
    scores: DeepSignalScores,
    rank: DeepSignalRank,
    thesis: z
      .string()
      .describe('A plain-English reading of the numbers above; it states only what the public activity data shows.'),
    evidence: z
      .object({
        rule: z.string().describe('The classification rule the type was assigned by (older weeks keep their rule).'),
        strength: SignalStrength.describe('The same as signalStrength.'),
        summary: z.string().describe('The evidence behind signalType, in one sentence: the same as signalEvidence.'),
        details: EvidenceDetails.describe(
          'What the counts rest on, each with its link on GitHub: new and returning people (public login, first commit of the window, commits, active days; never a name or an e-mail address), the window releases, tags and deployments, new repositories, infrastructure paths, files moved between languages and frameworks replaced. Empty lists for weeks collected before these were recorded.',
        ),
      })
      .describe('Why the startup has its signalType: the evidence the pipeline measured (see the methodology).'),
    comparables: z
      .array(DeepSignalComparable)
      .max(3)
      .describe('Up to 3 startups of the same sector with the most similar signal profile, most similar first.'),
    history: z
      .array(DeepSignalHistoryEntry)
      .describe('Every stored period the startup appears in, oldest first (the current period last).'),
    charged: z.int().min(0).describe('Credits this call consumed: 1 for a tracked startup.'),
  })
  .meta({ id: 'DeepSignal', description: 'The enriched profile of one tracked startup (paid).' });
export type DeepSignal = z.infer<typeof DeepSignal>;

export const DeepSignalMiss = z
  .object({
    found: z.literal(false),
    charged: z.literal(0).describe('A miss is never charged.'),
    candidates: z
      .array(SignalCandidate)
      .optional()
      .describe(
        'Beyond the interface contract: "did you mean" startups when the name is ambiguous or close to one (a typo is never charged: only an exact name, slug or alias is). Absent when nothing is close.',
      ),
  })
  .meta({ id: 'DeepSignalMiss', description: 'No tracked startup matches the name (not an error, not charged).' });
export type DeepSignalMiss = z.infer<typeof DeepSignalMiss>;

export const DeepSignalRequest = z
  .object({
    name: z.string().min(1).max(100).describe('Display name or GitHub organisation slug; matched as on /api/signal.'),
  })
  .strict()
  .meta({ id: 'DeepSignalRequest' });
export type DeepSignalRequest = z.infer<typeof DeepSignalRequest>;
