import { isoDay, periodEnd, type PeriodRef } from '../domain/periods.js';
import { accelerate } from './accelerate.js';
import { classify } from './classify.js';
import { filterActivity } from './filter.js';
import { normaliseActivity } from './normalise.js';
import { rank } from './rank.js';
import { type RankedPeriod } from '../domain/records.js';
import type { RawOrgActivity, ScoredOrg, WatchlistEntry } from '../domain/records.js';

export interface OrgInput {
  entry: WatchlistEntry;
  raw: RawOrgActivity;
  /** What GitHub's answer left out when this activity was collected; absent or null: collected whole. */
  collectionNote?: string | null | undefined;
}

/** filter → normalise → accelerate → classify for one organisation, as of the end of `period`. */
export function scoreOrg(input: OrgInput, period: PeriodRef): ScoredOrg {
  const windowEnd = isoDay(periodEnd(period));
  const filtered = filterActivity(input.raw, windowEnd);
  const metrics = normaliseActivity(filtered, windowEnd);
  const acceleration = accelerate(metrics);
  return {
    entry: input.entry,
    profile: input.raw.profile,
    metrics,
    acceleration,
    classification: classify(input.entry, metrics, acceleration),
    ...(input.collectionNote ? { collectionNote: input.collectionNote } : {}),
  };
}

/** The five pure stages after collect, for every tracked organisation of one period. */
export function computePeriod(inputs: readonly OrgInput[], period: PeriodRef): RankedPeriod {
  const seen = new Set<string>();
  for (const { entry } of inputs) {
    const key = entry.login.toLowerCase();
    if (seen.has(key)) throw new Error(`organisation ${entry.login} is listed twice; an org belongs to one sector`);
    seen.add(key);
  }
  return rank(inputs.map((input) => scoreOrg(input, period)));
}
