import type { SectorSlug } from '../schemas/enums.js';
import type { Startup } from '../schemas/signals.js';
import type { SignalEvidence } from './records.js';
import type { SignalLabel } from './signal-label.js';
import type { StageSource } from './stage-source.js';
import type { EvidenceDetails } from './evidence-links.js';

/**
 * One startup in one stored period, the same fields whichever period and whichever store it comes from: what the
 * period's source answers (mapped once from the store's rows, or from a period held in memory) and what the period
 * reads (src/core/periods/) hand the surfaces. No column name goes beyond the store.
 */
export interface PeriodStartup {
  /** The period's slug (ISO week, e.g. 2026-w47). */
  period: string;
  /** The GitHub organisation, as stored. */
  login: string;
  sector: SectorSlug;
  /** Rank across sectors; null below the activity floor or without rankable evidence. */
  rankOverall: number | null;
  rankInSector: number;
  compositeScore: number;
  /** The published record, exactly as the interface's Startup. */
  startup: Startup;
  /** The strength of and evidence for its signal type that week, read from the metrics stored with it. */
  label: SignalLabel;
  /** The classifier's evidence per type that week, when the week's rule recorded it. */
  evidence?: SignalEvidence | undefined;
  /** How that week's stage is known (see stage-source.ts). */
  stageSource: StageSource;
  /** What the week's label rests on, with links on GitHub (see evidence-links.ts). */
  evidenceDetails: EvidenceDetails;
}

/** One week of a startup's history: the startup in that period, and the period's name. */
export interface HistoryEntry extends PeriodStartup {
  periodName: string;
}
