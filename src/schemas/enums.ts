import { z } from 'zod';

/** The 15 sector slugs, exactly as the interface enumerates them. */
export const SECTOR_SLUGS = [
  'healthcare',
  'edtech',
  'ecommerce-infrastructure',
  'supply-chain',
  'web3',
  'enterprise-saas',
  'data-infrastructure',
  'robotics',
  'legal-tech',
  'hr-tech',
  'proptech',
  'agtech',
  'gaming',
  'space-tech',
  'social-community',
] as const;
export const SectorSlug = z.enum(SECTOR_SLUGS).meta({ id: 'SectorSlug', description: 'One of the 15 sector slugs.' });
export type SectorSlug = z.infer<typeof SectorSlug>;

export const STAGES = ['Pre-seed', 'Seed', 'Series A/B', 'Growth'] as const;
export const Stage = z.enum(STAGES).meta({ id: 'Stage' });
export type Stage = z.infer<typeof Stage>;

export const SIGNAL_TYPES = [
  'Engineering hiring burst',
  'Infrastructure buildout',
  'Deploy frequency spike',
  'Framework migration',
] as const;
export const SignalType = z.enum(SIGNAL_TYPES).meta({ id: 'SignalType' });
export type SignalType = z.infer<typeof SignalType>;

/** How strongly the evidence measured for a period supports the signal type it was given. */
export const SIGNAL_STRENGTHS = ['strong', 'weak', 'none'] as const;
export const SignalStrength = z.enum(SIGNAL_STRENGTHS).meta({
  id: 'SignalStrength',
  description:
    'How strongly the measured evidence supports signalType: strong, the type meets its rule; weak, some evidence below the threshold; none, no evidence for any type, so the type was given by the tie order (or, in weeks of the older rule activity-v1, as the type left when no other rule held). See the methodology.',
});
export type SignalStrength = z.infer<typeof SignalStrength>;

/**
 * Whether an organisation's collection was complete for the week a record belongs to: complete, GitHub answered
 * everything asked; partial, GitHub's answer left something out (a partial GraphQL result, or commits counted from
 * daily statistics) and the record was computed from what it gave, `collectionNote` saying what was missing;
 * unknown, a real week published before the service recorded it (it reads as complete or partial once the week is
 * published again).
 */
export const COLLECTION_STATES = ['complete', 'partial', 'unknown'] as const;
export const CollectionState = z.enum(COLLECTION_STATES).meta({
  id: 'CollectionState',
  description:
    "Whether the startup's GitHub collection was complete for this period: complete; partial, computed from what GitHub answered, with collectionNote saying what was missing; unknown, a week published before this was recorded. See the methodology.",
});
export type CollectionState = z.infer<typeof CollectionState>;

/** GitHub's username rule, length included: 1–39 characters, alphanumeric or single interior hyphens. */
export const GITHUB_USERNAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/**
 * The same rule without look-arounds, for JSON Schemas that LLM providers read (their regex dialects have none):
 * alphanumeric runs joined by single hyphens. The 1–39 length goes beside it as minLength / maxLength.
 */
export const GITHUB_USERNAME_SCHEMA_PATTERN = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
