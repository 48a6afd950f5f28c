import { isAutomationAuthor } from '../../../domain/automation.js';
import { addDays, isoDay } from '../../../domain/periods.js';
import { NEW_CONTRIBUTOR_JOIN_DAYS, NEW_CONTRIBUTOR_LOOKBACK_DAYS, WINDOW_DAYS } from '../../../domain/rules.js';
import type {
  AuthorLookback,
  DailyCommits,
  RawOrgActivity,
  RepoRecord,
  WatchlistEntry,
  WindowChanges,
} from '../../../domain/records.js';
import type { OrgOutcome } from '../../../store/pipeline.js';
import { newMeter } from '../../../github/client.js';
import { authorKey } from '../authors.js';
import type { BatchResult } from '../collect.js';
import { eventsStartDay, type CollectWindow } from '../window.js';
import { orgClones, type CloneOptions } from './clones.js';
import { RepoHistory, isoInstant } from './history.js';
import { peopleAddresses } from '../addresses.js';

/**
 * The git source of the collect stage: the same raw activity records (version 3) as the GitHub collector, read from
 * local clones of the organisation's repositories instead of the API, so that any past week can be rebuilt exactly
 * and without a token. For the period's end it takes each default branch's tip then (the first-parent chain, see
 * history.ts), the commits that tip reached inside the collect window by committer date (merges marked), every
 * author's latest earlier commit in the look-back, the tags dated inside the window, the files at the root and the
 * languages of the tree then, and the files each of the two windows changed between the tips at its bounds.
 * What git cannot see is named in the record (`unseen`), and `source: 'git'` says which collector built it.
 */

/** What a record read from git leaves out or stands in for, in the words the record carries. */
const GIT_UNSEEN: readonly string[] = [
  'releases (git holds their tags, which are counted as tags)',
  'deployments',
  'topics',
  'the organisation profile (name, description, location, website)',
  'repositories without a clone',
  'forks (every clone counts as the organisation’s own)',
  'GitHub accounts (authors are keyed by e-mail address unless it is a GitHub no-reply address)',
  'when a repository was created on GitHub (its first commit’s date stands in)',
  'languages by bytes (files by extension are counted)',
  'when work reached the branch (first-parent committer dates stand in for pushes)',
];

const DAY_MS = 86_400_000;

function dayOf(ms: number): string {
  return isoDay(new Date(ms));
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Builds one organisation's raw activity for a window from its repositories' histories (read with RepoHistory.open). */
async function activityFromHistories(
  entry: WatchlistEntry,
  histories: readonly RepoHistory[],
  window: CollectWindow,
  notes: string[] = [],
): Promise<RawOrgActivity> {
  const sinceMs = Date.parse(`${window.from}T00:00:00Z`);
  const untilMs = window.until.getTime();
  const lookSince = addDays(window.from, -(NEW_CONTRIBUTOR_LOOKBACK_DAYS + WINDOW_DAYS));
  const lookSinceMs = Date.parse(`${lookSince}T00:00:00Z`);
  const bounds = [untilMs - 2 * WINDOW_DAYS * DAY_MS, untilMs - WINDOW_DAYS * DAY_MS, untilMs].map((t) => new Date(t));

  const counts = new Map<string, DailyCommits>();
  /** The addresses of each author key (lower case) seen on the collected commits: the look-back matches them. */
  const emails = new Map<string, Set<string>>();
  const repos: RepoRecord[] = [];
  const tips = new Map<string, string>();

  for (const h of histories) {
    const tip = h.tipAt(window.until);
    // No commit on the branch by the period's end: the repository did not exist yet, as far as git can tell.
    if (!tip) continue;
    tips.set(h.name, tip.oid);
    const reached = h.ancestors(tip.oid);
    const collected = reached.filter((c) => c.committedAt >= sinceMs && c.committedAt <= untilMs);
    for (const c of collected) {
      const author = { name: c.authorName, email: c.authorEmail, user: null };
      const key = authorKey(author);
      const date = dayOf(c.committedAt);
      const merge = c.parents.length > 1 ? 1 : 0;
      const id = `${date}\u0000${h.name}\u0000${key}`;
      const row = counts.get(id);
      if (row) {
        row.commits++;
        if (merge) row.merges = (row.merges ?? 0) + 1;
      } else counts.set(id, { date, repo: h.name, author: key, commits: 1, ...(merge ? { merges: 1 } : {}) });
      const email = c.authorEmail.trim();
      if (email) {
        const lower = key.toLowerCase();
        const set = emails.get(lower) ?? new Set<string>();
        set.add(email.toLowerCase());
        emails.set(lower, set);
      }
    }

    const changes: WindowChanges[] = [];
    if (collected.length > 0) {
      try {
        for (let i = 0; i < 2; i++) {
          const base = h.tipAt(bounds[i]!);
          const head = h.tipAt(bounds[i + 1]!);
          if (!base || !head) continue;
          const from = isoDay(bounds[i]!);
          const until = isoDay(bounds[i + 1]!);
          const files = base.oid === head.oid ? [] : await h.changes(base.oid, head.oid);
          changes.push({ from, until, files, truncated: false });
        }
      } catch (err) {
        changes.length = 0;
        notes.push(`${h.name}: the files each window changed could not be read (${(err as Error).message})`);
      }
    }
    const languages = await h.languages(tip.oid);
    const createdAt = reached.reduce((min, c) => Math.min(min, c.committedAt), tip.committedAt);
    const eventsSince = eventsStartDay(window);
    const firstTag = h.tags.reduce<number | undefined>(
      (min, t) => (min === undefined || t.at < min ? t.at : min),
      undefined,
    );
    const tags = h.tags
      .filter((t) => dayOf(t.at) >= eventsSince && t.at < untilMs)
      .sort((a, b) => byText(dayOf(a.at), dayOf(b.at)) || b.at - a.at || byText(a.name, b.name))
      .map((t) => ({ date: dayOf(t.at), name: t.name }));
    repos.push({
      name: h.name,
      fork: false,
      createdAt: isoInstant(createdAt),
      language: Object.keys(languages)[0] ?? null,
      languages,
      markers: await h.markers(tip.oid),
      tags,
      eventsSince,
      ...(firstTag !== undefined && firstTag < untilMs && dayOf(firstTag) >= eventsSince
        ? { firstEventDay: dayOf(firstTag) }
        : {}),
      defaultBranch: h.branch,
      tip: { oid: tip.oid, source: 'first-parent' },
      ...(changes.length ? { changes } : {}),
    });
  }

  // The look-back: each person's latest commit in the organisation before the collected days, and before the join
  // window (whether they joined lately), from the same tips.
  const joinSince = addDays(isoDay(window.until), -NEW_CONTRIBUTOR_JOIN_DAYS);
  const joinSinceMs = Date.parse(`${joinSince}T00:00:00Z`);
  const joinLookSinceMs = Date.parse(`${addDays(joinSince, -NEW_CONTRIBUTOR_LOOKBACK_DAYS)}T00:00:00Z`);
  const seenBeforeJoin: Record<string, string | null> = {};
  const lookback: AuthorLookback = {
    since: lookSince,
    until: addDays(window.from, -1),
    lastSeen: {},
    joinSince,
    seenBeforeJoin,
  };
  const keysByEmail = new Map<string, string[]>();
  for (const [key, set] of emails) {
    if (isAutomationAuthor(key)) continue;
    lookback.lastSeen[key] = null;
    seenBeforeJoin[key] = null;
    for (const email of set) keysByEmail.set(email, [...(keysByEmail.get(email) ?? []), key]);
  }
  for (const h of histories) {
    const tip = tips.get(h.name);
    if (!tip || keysByEmail.size === 0) continue;
    for (const c of h.ancestors(tip)) {
      const inLookback = c.committedAt >= lookSinceMs && c.committedAt <= sinceMs;
      const beforeJoin = c.committedAt >= joinLookSinceMs && c.committedAt <= joinSinceMs;
      if (!inLookback && !beforeJoin) continue;
      for (const key of keysByEmail.get(c.authorEmail.trim().toLowerCase()) ?? []) {
        const day = dayOf(c.committedAt);
        for (const [seen, holds] of [
          [lookback.lastSeen, inLookback],
          [seenBeforeJoin, beforeJoin],
        ] as const) {
          const known = seen[key];
          if (holds && (!known || known < day)) seen[key] = day;
        }
      }
    }
  }

  const commits = [...counts.values()].sort(
    (a, b) => byText(a.date, b.date) || byText(a.repo, b.repo) || byText(a.author, b.author),
  );
  return {
    profile: { login: entry.login, name: null, description: null, location: null, blog: null },
    repos: repos.sort((a, b) => byText(a.name, b.name)),
    commits,
    version: 3,
    lookback,
    addresses: peopleAddresses(emails),
    source: 'git',
    unseen: [...GIT_UNSEEN],
  };
}

export interface GitCollectOptions extends CloneOptions {
  /** Organisations read at once (each reads its clones one after another). */
  concurrency?: number | undefined;
}

/** An organisation's clones, opened: its repositories' histories and what could not be read. */
export interface OpenedOrg {
  entry: WatchlistEntry;
  histories: RepoHistory[];
  notes: string[];
}

/** Finds, clones or fetches as allowed, and reads every clone of an organisation once. */
async function openOrg(entry: WatchlistEntry, options: CloneOptions): Promise<OpenedOrg> {
  const { clones, notes } = await orgClones(entry, options);
  const histories: RepoHistory[] = [];
  for (const clone of clones) {
    try {
      histories.push(await RepoHistory.open(clone.dir, clone.name));
    } catch (err) {
      notes.push(`${clone.name}: the clone could not be read (${(err as Error).message})`);
    }
  }
  return { entry, histories, notes };
}

/** The outcome of one organisation's window, as the GitHub collector reports it (no request sent). */
async function outcomeFromOpened(opened: OpenedOrg, window: CollectWindow): Promise<OrgOutcome> {
  const login = opened.entry.login.toLowerCase();
  if (opened.histories.length === 0) {
    return {
      login,
      status: 'not_found',
      requests: 0,
      message: `no readable clone of ${opened.entry.login}'s repositories${opened.notes.length ? ` (${opened.notes.join('; ')})` : ''}: clone them into <clones>/${opened.entry.login}/, or list them in the watchlist and allow cloning`,
    };
  }
  const notes = [...opened.notes];
  const activity = await activityFromHistories(opened.entry, opened.histories, window, notes);
  return {
    login,
    status: notes.length > 0 ? 'partial' : 'collected',
    message: notes.length > 0 ? notes.join('; ') : undefined,
    requests: 0,
    activity,
    coversFrom: window.from,
    // The record holds the window as it stood at its end; no probe can vouch for anything after it.
    coversUntil: window.until,
    probeEtag: null,
  };
}

/**
 * One organisation's raw activity for a collect window, read from its clones: what the GitHub collector gives for
 * the same window, point-in-time (only what the default branches had reached by `window.until`).
 */
export async function collectWindowFromGit(
  entry: WatchlistEntry,
  window: CollectWindow,
  options: CloneOptions,
): Promise<OrgOutcome> {
  return outcomeFromOpened(await openOrg(entry, options), window);
}

async function eachOrg<T>(
  entries: readonly WatchlistEntry[],
  concurrency: number,
  work: (entry: WatchlistEntry) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(entries.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, entries.length)) }, async () => {
      while (next < entries.length) {
        const i = next++;
        results[i] = await work(entries[i]!);
      }
    }),
  );
  return results;
}

function failed(entry: WatchlistEntry, err: unknown): OrgOutcome {
  return { login: entry.login.toLowerCase(), status: 'failed', requests: 0, message: (err as Error).message };
}

/** The git counterpart of collectOrgs: a batch of organisations for one window, in the order given. */
export async function collectOrgsFromGit(
  entries: readonly WatchlistEntry[],
  window: CollectWindow,
  options: GitCollectOptions,
): Promise<BatchResult> {
  const outcomes = await eachOrg(entries, options.concurrency ?? 2, (entry) =>
    collectWindowFromGit(entry, window, options).catch((err: unknown) => failed(entry, err)),
  );
  return { outcomes, meter: newMeter() };
}

/**
 * Several windows (past weeks) of a batch of organisations from their clones, each clone read once: the backfill's
 * way to rebuild a range of weeks cheaply. Returns, for each window in the order given, the outcomes in the order
 * of `entries`. Clones are fetched (when asked) once, before the first window.
 */
export async function collectWindowsFromGit(
  entries: readonly WatchlistEntry[],
  windows: readonly CollectWindow[],
  options: GitCollectOptions,
): Promise<OrgOutcome[][]> {
  const perOrg = await eachOrg(entries, options.concurrency ?? 2, async (entry) => {
    try {
      const opened = await openOrg(entry, options);
      const out: OrgOutcome[] = [];
      for (const window of windows) out.push(await outcomeFromOpened(opened, window));
      return out;
    } catch (err) {
      return windows.map(() => failed(entry, err));
    }
  });
  return windows.map((_, w) => perOrg.map((outcomes) => outcomes[w]!));
}
