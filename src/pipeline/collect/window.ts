import { DAY_MS } from '../../domain/periods.js';
import { WINDOW_DAYS } from '../../domain/rules.js';

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
