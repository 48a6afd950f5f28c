import { addDays, DAY_MS, isoDay } from '../../domain/periods.js';
import { DEPLOY_BASELINE_WINDOWS, WINDOW_DAYS } from '../../domain/rules.js';

export interface CollectWindow {
  /** First UTC day collected (YYYY-MM-DD). */
  from: string;
  /** The period's end: what could be seen at this instant is read, nothing after it. */
  until: Date;
  /** When the collection runs (now); defaults to `until`. */
  collectedAt?: Date | undefined;
}

/** The start of the period's earlier window, the start of its later window, and the period's end. */
export function windowBounds(window: CollectWindow): Date[] {
  const end = window.until.getTime();
  return [new Date(end - 2 * WINDOW_DAYS * DAY_MS), new Date(end - WINDOW_DAYS * DAY_MS), window.until];
}

/**
 * The first UTC day whose releases, tags and deployments are read: the start of the deploy baseline, the windows of
 * the twelve weeks before the current one (or the collected days' start, when that is earlier).
 */
export function eventsStartDay(window: CollectWindow): string {
  const start = addDays(isoDay(window.until), -WINDOW_DAYS * (1 + DEPLOY_BASELINE_WINDOWS));
  return start < window.from ? start : window.from;
}
