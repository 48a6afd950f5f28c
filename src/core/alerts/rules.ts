import { TRENDING_SIZE } from '../../domain/rules.js';
import type { AlertEventType, AlertWatch } from '../../schemas/alerts.js';
import type { SectorSlug, SignalType } from '../../schemas/enums.js';

/**
 * The event rules: two consecutive periods and one subscription's watch in, the matching changes out. Pure: the
 * caller reads the periods and records the events (src/core/alerts/events.ts).
 */

/** One startup in one period, as the rules read it. */
export interface StartupState {
  login: string;
  name: string;
  sector: SectorSlug;
  /** Rank across all sectors; null when not ranked. */
  rank: number | null;
  signalType: SignalType;
  /**
   * Whether evidence stands behind the signal type (its strength is strong or weak). Without it the type is the tie
   * order's placeholder, not a finding: a change between two such placeholders is no event, and a watch of signal
   * types does not match it.
   */
  finding: boolean;
  /** The published signed percents ("+42%") and their numbers. */
  commitVelocityChange: string;
  contributorGrowth: string;
}

export interface PeriodState {
  slug: string;
  name: string;
  /** By lower-case login. */
  startups: Map<string, StartupState>;
}

export interface Change {
  type: AlertEventType;
  login: string;
  before: StartupState | undefined;
  after: StartupState | undefined;
  threshold?: number;
  direction?: 'up' | 'down';
}

export function percentOf(signed: string): number {
  const m = /^([+-]\d+)%$/.exec(signed);
  return m ? Number(m[1]) : Number.NaN;
}

const inTop = (s: StartupState | undefined) => s !== undefined && s.rank !== null && s.rank <= TRENDING_SIZE;

/** True when the watch names nothing to watch (a subscription must watch something). */
export function watchesNothing(watch: AlertWatch): boolean {
  return !watch.startups?.length && !watch.sectors?.length && !watch.signalTypes?.length && !watch.trendingTop20;
}

function watched(watch: AlertWatch, before: StartupState | undefined, after: StartupState | undefined): boolean {
  const any = (after ?? before)!;
  if (watch.startups?.some((login) => login.toLowerCase() === any.login.toLowerCase())) return true;
  if (watch.sectors?.includes(any.sector)) return true;
  const types = watch.signalTypes;
  const matches = (s: StartupState | undefined) => s !== undefined && s.finding && types!.includes(s.signalType);
  return Boolean(types && (matches(after) || matches(before)));
}

function crossing(
  type: 'commit_velocity.crossed' | 'contributor_growth.crossed',
  threshold: number | undefined,
  before: StartupState | undefined,
  after: StartupState | undefined,
): Change | undefined {
  if (threshold === undefined || !before || !after) return undefined;
  const field = type === 'commit_velocity.crossed' ? 'commitVelocityChange' : 'contributorGrowth';
  const was = percentOf(before[field]);
  const now = percentOf(after[field]);
  if (Number.isNaN(was) || Number.isNaN(now)) return undefined;
  if (was < threshold && now >= threshold)
    return { type, login: after.login, before, after, threshold, direction: 'up' };
  if (was >= threshold && now < threshold)
    return { type, login: after.login, before, after, threshold, direction: 'down' };
  return undefined;
}

/** Every change between `previous` and `current` that `watch` asks for, at most one of each type per startup. */
export function changesFor(watch: AlertWatch, previous: PeriodState, current: PeriodState): Change[] {
  const changes: Change[] = [];
  const logins = new Set([...previous.startups.keys(), ...current.startups.keys()]);
  for (const login of [...logins].sort()) {
    const before = previous.startups.get(login);
    const after = current.startups.get(login);
    const isWatched = watched(watch, before, after);
    const entered = after !== undefined && inTop(after) && !inTop(before);
    if (entered && (isWatched || watch.trendingTop20)) changes.push({ type: 'trending.entered', login, before, after });
    if (!isWatched) continue;
    if (inTop(before) && !inTop(after)) changes.push({ type: 'trending.left', login, before, after });
    if (before && after && before.signalType !== after.signalType && (before.finding || after.finding)) {
      changes.push({ type: 'signal_type.changed', login, before, after });
    }
    for (const change of [
      crossing('commit_velocity.crossed', watch.thresholds?.commitVelocityChange, before, after),
      crossing('contributor_growth.crossed', watch.thresholds?.contributorGrowth, before, after),
    ]) {
      if (change) changes.push(change);
    }
  }
  return changes;
}
