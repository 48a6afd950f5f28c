import { siteUrls } from '../../domain/urls.js';
import type { AlertWatch } from '../../schemas/alerts.js';
import type { Snapshot } from '../../snapshot/snapshot.js';

/**
 * The startups a subscription may watch: only those this service tracks, each named by its organisation login or
 * its name and resolved by the strict name rule (exact name, organisation or alias, or a misspelt generic word beside
 * the exact distinctive ones; a misspelt distinctive word is only offered as "did you mean"). A subscription for an organisation nobody tracks would never fire, so it is refused, naming the entry.
 */
export interface WatchedStartup {
  org: string;
  name: string;
  url: string;
}

export type WatchedResolution =
  | { ok: true; startups: WatchedStartup[] }
  | { ok: false; reason: 'untracked'; index: number; entry: string; candidates: { name: string; org: string }[] }
  | { ok: false; reason: 'no-period' };

export interface TrackedStartups {
  /** Each entry to one tracked startup (duplicates once), or the first entry that is none. */
  resolve(entries: readonly string[]): WatchedResolution;
  /** A stored login as the startup it is now (its name), or undefined when this period does not track it. */
  describe(login: string): WatchedStartup | undefined;
}

export function resolveWatched(
  snapshot: Snapshot | undefined,
  baseUrl: string,
  entries: readonly string[],
): WatchedResolution {
  if (!snapshot) return { ok: false, reason: 'no-period' };
  const urls = siteUrls(baseUrl);
  const startups: WatchedStartup[] = [];
  for (const [index, raw] of entries.entries()) {
    const entry = raw.trim();
    const resolution = snapshot.matcher.resolve(entry, { typos: false });
    if (resolution.status !== 'match') {
      const candidates = resolution.candidates.map((c) => ({ name: c.item.startup.name, org: c.item.login }));
      return { ok: false, reason: 'untracked', index, entry, candidates };
    }
    const org = resolution.item.login.toLowerCase();
    if (!startups.some((s) => s.org === org))
      startups.push({ org, name: resolution.item.startup.name, url: urls.startup(org) });
  }
  return { ok: true, startups };
}

/** The tracked startups of whatever period `current` serves at the time of asking. */
export function trackedStartups(current: () => Snapshot | undefined, baseUrl: string): TrackedStartups {
  return {
    resolve: (entries) => resolveWatched(current(), baseUrl, entries),
    describe(login) {
      const s = current()?.byLogin.get(login.toLowerCase());
      return s
        ? { org: s.login.toLowerCase(), name: s.startup.name, url: siteUrls(baseUrl).startup(s.login) }
        : undefined;
    },
  };
}

/** "“Zepatra Cloud” is not a startup this service tracks. Did you mean Zepatra?" */
export function untrackedSentence(entry: string, candidates: readonly { name: string }[]): string {
  const near = [...new Set(candidates.map((c) => c.name))];
  return `“${entry}” is not a startup this service tracks.${near.length ? ` Did you mean ${near.join(', ')}?` : ''}`;
}

const listOf = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** What a subscription watches, in one sentence: "You are watching Zepatra Cloud and every robotics startup." */
export function watchingSentence(watch: AlertWatch, startups: readonly { name: string }[]): string {
  const parts: string[] = [];
  if (startups.length) parts.push(listOf(startups.map((s) => s.name)));
  if (watch.sectors?.length) parts.push(`every startup of ${listOf(watch.sectors)}`);
  if (watch.signalTypes?.length) parts.push(`every startup whose signal type is ${listOf(watch.signalTypes)}`);
  if (watch.trendingTop20) parts.push('any startup entering the trending top 20');
  return `You are watching ${listOf(parts)}.`;
}
