/**
 * How a published stage is known. The watchlist may state a startup's stage, ideally with the public page that says
 * it; otherwise the classify stage estimates it from the number of public committers (STAGE_BY_CONTRIBUTORS), which
 * says little about a company's funding. Every surface that shows a stage shows how it is known, so an estimate is
 * never read as a fact.
 */

/** The stage is estimated from the organisation's public committers over 28 days. */
export const STAGE_ESTIMATED = 'estimated';
/** The watchlist states the stage without naming a public source for it. */
export const STAGE_FROM_WATCHLIST = 'watchlist';

/** `estimated`, `watchlist`, or the https URL of the public page stating the stage. */
export type StageSource = string;

/** The stage source of a record, from the metrics stored with it; a record stored without one counts as estimated. */
export function stageSourceOf(metrics: Readonly<Record<string, unknown>> | undefined): StageSource {
  const value = metrics?.['stageSource'];
  if (value === STAGE_FROM_WATCHLIST || value === STAGE_ESTIMATED) return value;
  if (typeof value === 'string' && /^https:\/\/\S+$/.test(value)) return value;
  return STAGE_ESTIMATED;
}

/** Whether the stage is an estimate rather than something a watchlist or a public page states. */
export function isStageEstimated(source: StageSource): boolean {
  return source === STAGE_ESTIMATED;
}
