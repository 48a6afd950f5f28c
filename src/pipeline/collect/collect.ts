import { addDays, DAY_MS, isoDay } from '../../domain/periods.js';
import { isAutomationAuthor } from '../../domain/automation.js';
import type { OrgOutcome } from '../../store/pipeline.js';
import {
  INFRA_ROOT_FILES,
  MANIFEST_ECOSYSTEMS,
  NEW_CONTRIBUTOR_LOOKBACK_DAYS,
  WINDOW_DAYS,
} from '../../domain/rules.js';
import type {
  AuthorLookback,
  DailyCommits,
  FileChange,
  RawOrgActivity,
  RepoRecord,
  WatchlistEntry,
  WindowChanges,
} from '../../domain/records.js';
import { authorKey, UNATTRIBUTED_AUTHOR } from './authors.js';
import {
  GitHubAuthError,
  GitHubNotFoundError,
  newMeter,
  type BranchTip,
  type GitHubClient,
  type GraphqlErrorItem,
  type Meter,
} from '../../github/client.js';
import {
  COMMITS_PER_PAGE,
  lookbackQuery,
  moreEventsQuery,
  moreHistoryQuery,
  moreReposQuery,
  orgsQuery,
  type CommitNode,
  type EventPage,
  type HistoryConnection,
  type OrgNode,
  type RepoConnection,
  type RepoNode,
  type TagNode,
} from './queries.js';

/**
 * Stage 1, collect: the only stage that talks to GitHub. For a batch of organisations it
 * 1. probes each one with a conditional `GET /orgs/{org}/repos?sort=pushed&per_page=1` carrying the ETag stored
 *    last time: a 304 (no quota spent) means no repository was pushed, created or changed since, and the stored
 *    activity is reused as it is;
 * 2. reads the changed ones with one GraphQL query per few organisations: profile, public non-fork repositories
 *    (most recently pushed first) and each repository's default-branch commits since the start of the window;
 * 3. follows further pages (repositories, then commits) in batched GraphQL queries, several repositories per query;
 * 4. for a repository with more commits than the page budget allows, counts the older days from GitHub's daily
 *    commit statistics (`/stats/commit_activity`, which answers 202 while it computes) and marks the organisation
 *    partial.
 * Everything is read as it stood at the window's end (`until`, the period's end), so a past week collected later
 * gives the same record: commits up to `until` on each default branch as its tip stood then (for a repository
 * pushed since, the tip is read from the repository's list of pushes and the history read from it, so work merged
 * later with earlier dates does not leak in); releases, tags and deployments paged newest first until the window's
 * start is reached, nothing after `until` kept; and, for every author of the collected commits, their latest
 * earlier commit in the organisation in the NEW_CONTRIBUTOR_LOOKBACK_DAYS before the window (the look-back).
 * Bots are not removed here: the filter stage does it, so raw activity stays raw.
 */

export interface CollectWindow {
  /** First UTC day collected (YYYY-MM-DD). */
  from: string;
  /** The period's end: what could be seen at this instant is read, nothing after it. */
  until: Date;
  /** When the collection runs (now); defaults to `until`. */
  collectedAt?: Date | undefined;
}

/** Pages of a repository's list of pushes read to find its tips (100 pushes a page): a busy repository collected a year later needs dozens. */
export const MAX_TIP_PAGES = 50;
/** Further pages of a repository's releases, tags or deployments read to reach back to the window's start. */
export const MAX_EVENT_PAGES = 10;
/** (repository, author) pairs per look-back query. */
export const LOOKBACK_PAIRS_PER_QUERY = 50;
/** Event lists per follow-up query. */
const EVENT_LISTS_PER_QUERY = 10;

export interface CachedOrg {
  etag: string | null;
  digest: string;
  coversFrom: string;
  coversUntil: Date;
  /** The stored activity came from a partial answer: it is read again, never reused on a 304. */
  partial?: boolean | undefined;
}

export interface CollectOptions {
  client: GitHubClient;
  window: CollectWindow;
  /** Ignore stored ETags and read every organisation again. */
  fullRefresh: boolean;
  orgsPerQuery: number;
  maxCommitPages: number;
  /** Repositories per follow-up history query. */
  reposPerQuery?: number;
}

export interface BatchResult {
  outcomes: OrgOutcome[];
  /** Every request this batch sent, and how many were answered 304. */
  meter: Meter;
}

const REPOS_PER_HISTORY_QUERY = 10;

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const MARKER_FILES = new Set([...Object.keys(MANIFEST_ECOSYSTEMS), ...INFRA_ROOT_FILES]);

function tagDate(tag: TagNode): string | undefined {
  const target = tag.target;
  if (!target) return undefined;
  if ('committedDate' in target) return target.committedDate;
  if ('tagger' in target) return target.tagger?.date ?? target.target?.committedDate ?? undefined;
  return undefined;
}

/**
 * The evidence of one repository read with history: events inside the collect window (UTC days), languages by size,
 * topics, and the root entries that are dependency manifests or infrastructure files. When a list of events filled
 * its page and its oldest event is still inside the window, `eventsFrom` says from which day the lists are whole.
 */
/** The items of a GitHub list without the nodes it answered as null (a partial result). */
function present<T>(list: readonly (T | null)[] | null | undefined): T[] {
  return (list ?? []).filter((x): x is T => x !== null);
}

/** How many evidence nodes of a repository GitHub answered as null. */
function missingEvidence(node: RepoNode): number {
  const nulls = (list: readonly unknown[] | null | undefined) => (list ?? []).filter((x) => x === null).length;
  return (
    nulls(node.releases?.nodes) +
    nulls(node.tags?.nodes) +
    nulls(node.deployments?.nodes) +
    nulls(node.languages?.edges) +
    nulls(node.repositoryTopics?.nodes)
  );
}

export function repoEvidence(node: RepoNode, window: { from: string; until: Date }): Partial<RepoRecord> {
  // Git timestamps may carry a UTC offset: compare instants, not text.
  const until = window.until.getTime();
  const inWindow = (instant: string | null | undefined): instant is string =>
    Boolean(instant) && dayOf(instant!) >= window.from && Date.parse(instant!) < until;
  const cut: string[] = [];
  const noteCut = (full: boolean | undefined, oldest: string | null | undefined) => {
    if (full && oldest && dayOf(oldest) >= window.from) cut.push(dayOf(oldest));
  };
  const allReleases = present(node.releases?.nodes);
  const releaseNodes = allReleases.filter((r) => !r.isDraft);
  noteCut(node.releases?.pageInfo.hasNextPage, allReleases.at(-1)?.createdAt);
  const tagNodes = present(node.tags?.nodes);
  noteCut(node.tags?.pageInfo.hasNextPage, tagNodes.length ? tagDate(tagNodes.at(-1)!) : undefined);
  const deploymentNodes = present(node.deployments?.nodes);
  noteCut(node.deployments?.pageInfo.hasNextPage, deploymentNodes.at(-1)?.createdAt);

  const languages: Record<string, number> = {};
  for (const edge of present(node.languages?.edges)) languages[edge.node.name] = edge.size;
  const markers = (node.root?.entries ?? [])
    .filter((e) => e.type === 'blob' && (MARKER_FILES.has(e.name) || /\.tf$/i.test(e.name)))
    .map((e) => e.name)
    .sort();
  const byDay = <T extends { date: string }>(list: T[]) =>
    list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return {
    languages,
    topics: present(node.repositoryTopics?.nodes)
      .map((t) => t.topic.name)
      .sort(),
    markers,
    releases: byDay(
      releaseNodes
        .map((r) => ({ instant: r.publishedAt ?? r.createdAt, tag: r.tagName }))
        .filter((r) => inWindow(r.instant))
        .map((r) => ({ date: dayOf(r.instant), tag: r.tag })),
    ),
    tags: byDay(
      tagNodes
        .map((t) => ({ instant: tagDate(t), name: t.name }))
        .filter((t): t is { instant: string; name: string } => inWindow(t.instant))
        .map((t) => ({ date: dayOf(t.instant), name: t.name })),
    ),
    deployments: byDay(
      deploymentNodes
        .filter((d) => inWindow(d.createdAt))
        .map((d) => ({ date: dayOf(d.createdAt), environment: d.environment })),
    ),
    ...(cut.length ? { eventsFrom: cut.sort().at(-1)! } : {}),
  };
}

function errorFor(errors: GraphqlErrorItem[], alias: string): GraphqlErrorItem | undefined {
  return errors.find((e) => e.path?.[0] === alias);
}

/** The errors GitHub answered beside the data of one alias, as one note (at most three named). */
function partialNote(errors: GraphqlErrorItem[], alias: string): string | undefined {
  const mine = errors.filter((e) => e.path?.[0] === alias);
  if (mine.length === 0) return undefined;
  const named = mine
    .slice(0, 3)
    .map((e) => `${(e.path ?? []).slice(1).join('.') || 'answer'}: ${e.message}`)
    .join('; ');
  return `GitHub's answer was partial (${named}${mine.length > 3 ? `; and ${mine.length - 3} more` : ''}); what it answered was kept`;
}

/** Everything learnt about one organisation while its pages come in. */
class OrgAccumulator {
  readonly login: string;
  readonly meter = newMeter();
  profile: RawOrgActivity['profile'];
  readonly repos: RepoRecord[] = [];
  readonly commits = new Map<string, CommitNode[]>();
  readonly historyPages = new Map<string, number>();
  readonly historyCursor = new Map<string, string>();
  readonly overflow = new Set<string>();
  readonly notes: string[] = [];
  /** Repositories read with history: their node (evidence lists grow as further pages come in). */
  readonly evidenceNodes = new Map<string, RepoNode>();
  readonly eventPages = new Map<string, number>();
  readonly branches = new Map<string, string>();
  /** Repositories pushed after the window's end, whose tip at the end is still to be read. */
  readonly tipPending = new Set<string>();
  readonly tips = new Map<string, { oid: string; source: 'activity' | 'history' }>();
  /** Tips at the period's three window bounds, for repositories whose list of pushes was read (see windowBounds). */
  readonly boundTips = new Map<string, BranchTip[]>();
  /** The expression history pages are read from: the tip at the window's end, or the branch's name. */
  readonly historyFrom = new Map<string, string>();
  /** Addresses of each author key, for the look-back (kept in memory only, never stored). */
  readonly emails = new Map<string, Set<string>>();
  /** Last push of each repository, to know which ones the look-back must read. */
  readonly pushedAt = new Map<string, string>();
  pushedAfterWindow = false;
  lookback: AuthorLookback | undefined;
  readonly changes = new Map<string, WindowChanges[]>();
  nextRepoCursor: string | null = null;
  nextRepoWithHistory = false;
  failure: string | undefined;

  constructor(
    readonly entry: WatchlistEntry,
    org: OrgNode,
    readonly probeEtag: string | null,
    private readonly sinceIso: string,
    private readonly maxCommitPages: number,
    private readonly window: CollectWindow,
  ) {
    this.login = entry.login.toLowerCase();
    this.profile = {
      login: org.login,
      name: org.name,
      description: org.description,
      location: org.location,
      blog: org.websiteUrl,
    };
  }

  /** Records the errors GitHub answered beside this organisation's data: the organisation becomes partial. */
  notePartial(errors: GraphqlErrorItem[], alias: string): void {
    const note = partialNote(errors, alias);
    if (note) this.notes.push(note);
  }

  addRepoPage(connection: RepoConnection, withHistory: boolean): void {
    let missingRepos = 0;
    let missingEvents = 0;
    for (const node of connection.nodes) {
      if (!node) {
        missingRepos++;
        continue;
      }
      if (withHistory) missingEvents += missingEvidence(node);
      this.repos.push({
        name: node.name,
        fork: node.isFork,
        createdAt: node.createdAt,
        language: node.primaryLanguage?.name ?? null,
      });
      if (node.pushedAt) this.pushedAt.set(node.name, node.pushedAt);
      if (node.pushedAt && Date.parse(node.pushedAt) > this.window.until.getTime()) this.pushedAfterWindow = true;
      if (!withHistory) continue;
      this.evidenceNodes.set(node.name, node);
      const branch = node.defaultBranchRef?.name;
      if (branch) this.branches.set(node.name, branch);
      const history = node.defaultBranchRef?.target?.history;
      if (branch && node.pushedAt && Date.parse(node.pushedAt) > this.window.until.getTime()) {
        // Pushed since the window's end: its history is read from the tip it had then, once that is known.
        this.tipPending.add(node.name);
      } else if (history) {
        if (branch) this.historyFrom.set(node.name, branch);
        this.addHistory(node.name, history);
      }
    }
    if (missingRepos > 0) {
      this.notes.push(
        `${missingRepos} ${missingRepos === 1 ? 'repository was' : 'repositories were'} missing from GitHub's answer (null nodes) and not counted`,
      );
    }
    if (missingEvents > 0) {
      this.notes.push(
        `${missingEvents} releases, tags, deployments, languages or topics were missing from GitHub's answer (null nodes)`,
      );
    }
    const last = present(connection.nodes).at(-1);
    this.nextRepoCursor = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
    // Repositories come most recently pushed first: once one was last pushed before the window, none of the
    // following ones can hold a commit inside it, so their pages are read without history.
    this.nextRepoWithHistory = Boolean(last?.pushedAt && last.pushedAt >= this.sinceIso);
  }

  addHistory(repo: string, history: HistoryConnection): void {
    const list = this.commits.get(repo) ?? [];
    const nodes = present(history.nodes);
    for (const n of nodes) {
      const email = n.author?.email?.trim();
      if (!email) continue;
      const key = authorKey(n.author).toLowerCase();
      const set = this.emails.get(key) ?? new Set<string>();
      set.add(email);
      this.emails.set(key, set);
    }
    list.push(...nodes);
    if (nodes.length < history.nodes.length) {
      this.notes.push(
        `${repo}: ${history.nodes.length - nodes.length} commits were missing from GitHub's answer (null nodes) and not counted`,
      );
    }
    this.commits.set(repo, list);
    const pages = (this.historyPages.get(repo) ?? 0) + 1;
    this.historyPages.set(repo, pages);
    this.historyCursor.delete(repo);
    if (!history.pageInfo.hasNextPage || !history.pageInfo.endCursor) return;
    if (pages < this.maxCommitPages) this.historyCursor.set(repo, history.pageInfo.endCursor);
    else this.overflow.add(repo);
  }

  fail(message: string): void {
    this.failure ??= message;
    this.nextRepoCursor = null;
    this.historyCursor.clear();
  }
}

function dayOf(instant: string): string {
  return isoDay(new Date(instant));
}

/** Folds commits into per-day, per-repository, per-author counts, sorted so equal activity has equal bytes. */
function buildActivity(acc: OrgAccumulator, window: CollectWindow, statsDays: Map<string, Map<string, number>>) {
  const counts = new Map<string, DailyCommits>();
  const add = (date: string, repo: string, author: string, n: number, merges = 0) => {
    if (date < window.from || n <= 0) return;
    const key = `${date}\u0000${repo}\u0000${author}`;
    const row = counts.get(key);
    if (row) {
      row.commits += n;
      if (merges) row.merges = (row.merges ?? 0) + merges;
    } else counts.set(key, { date, repo, author, commits: n, ...(merges ? { merges } : {}) });
  };
  for (const [repo, nodes] of acc.commits) {
    const fromStats = statsDays.get(repo);
    const boundary = fromStats ? [...fromStats.keys()].sort().at(-1)! : undefined;
    for (const node of nodes) {
      const date = dayOf(node.committedDate);
      // Days up to the boundary come from the statistics, whole, so commits read on them are not added twice.
      if (boundary && date <= boundary) continue;
      add(date, repo, authorKey(node.author), 1, (node.parents?.totalCount ?? 1) > 1 ? 1 : 0);
    }
    if (fromStats) for (const [date, n] of fromStats) add(date, repo, UNATTRIBUTED_AUTHOR, n);
  }
  const commits = [...counts.values()].sort(
    (a, b) =>
      (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
      (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0) ||
      (a.author < b.author ? -1 : a.author > b.author ? 1 : 0),
  );
  const repos = [...acc.repos]
    .map((r): RepoRecord => {
      const node = acc.evidenceNodes.get(r.name);
      if (!node) return r;
      const branch = acc.branches.get(r.name);
      const tip = acc.tips.get(r.name);
      return {
        ...r,
        ...repoEvidence(node, window),
        ...(branch ? { defaultBranch: branch } : {}),
        ...(tip ? { tip } : {}),
        ...(acc.changes.has(r.name) ? { changes: acc.changes.get(r.name) } : {}),
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    profile: acc.profile,
    repos,
    commits,
    version: 3,
    ...(acc.lookback ? { lookback: acc.lookback } : {}),
  } satisfies RawOrgActivity;
}

/**
 * Counts the days of an overflowing repository that the commit pages did not reach, from GitHub's statistics.
 * Returns the per-day counts to use (keyed by day, up to and including the oldest day the pages reached).
 */
async function statisticsFallback(
  client: GitHubClient,
  acc: OrgAccumulator,
  repo: string,
  window: CollectWindow,
  maxCommitPages: number,
): Promise<Map<string, number> | undefined> {
  const read = maxCommitPages * COMMITS_PER_PAGE;
  const nodes = acc.commits.get(repo) ?? [];
  const oldestRead = nodes.reduce<string | undefined>((min, n) => {
    const d = dayOf(n.committedDate);
    return min === undefined || d < min ? d : min;
  }, undefined);
  const result = await client.commitActivity(acc.profile.login, repo, acc.meter);
  if (result.kind === 'too-large') {
    acc.notes.push(
      `${repo}: more than ${read} commits since ${window.from} and too large for GitHub's statistics endpoint (422 ${result.message}); only the most recent ${read} commits were counted`,
    );
    return undefined;
  }
  if (result.kind === 'not-ready') {
    acc.notes.push(
      `${repo}: more than ${read} commits since ${window.from}; GitHub was still computing its statistics after ${result.attempts} tries, so only the most recent ${read} commits were counted`,
    );
    return undefined;
  }
  if (result.kind === 'empty' || !oldestRead) {
    acc.notes.push(`${repo}: more than ${read} commits since ${window.from}; GitHub returned no statistics`);
    return undefined;
  }
  const days = new Map<string, number>();
  for (const week of result.weeks) {
    const sunday = isoDay(new Date(week.week * 1000));
    week.days.forEach((n, i) => {
      const date = addDays(sunday, i);
      if (date >= window.from && date <= oldestRead) days.set(date, n);
    });
  }
  acc.notes.push(
    `${repo}: more than ${read} commits since ${window.from}; days from ${window.from} to ${oldestRead} were counted from GitHub's daily statistics, which name no authors (merge commits excluded)`,
  );
  return days;
}

/**
 * The tip at the window's end of each repository pushed since: from its list of pushes. When the list reaches back
 * to the end, the history is read from that tip (a branch that did not exist then has no commits); otherwise from
 * the branch as it is now, up to the end, with a note that work merged later with earlier dates may be counted.
 */
async function resolveTips(client: GitHubClient, acc: OrgAccumulator, window: CollectWindow): Promise<void> {
  const pending = [...acc.tipPending];
  acc.tipPending.clear();
  for (const repo of pending) {
    const branch = acc.branches.get(repo)!;
    try {
      const tips = await client.branchTipsAt(
        acc.profile.login,
        repo,
        branch,
        windowBounds(window),
        MAX_TIP_PAGES,
        acc.meter,
      );
      acc.boundTips.set(repo, tips);
      const tip = tips[2]!;
      if (tip.reached) {
        if (!tip.oid) continue;
        acc.tips.set(repo, { oid: tip.oid, source: 'activity' });
        acc.historyFrom.set(repo, tip.oid);
      } else {
        acc.historyFrom.set(repo, branch);
        acc.notes.push(
          `${repo}: GitHub's list of pushes does not reach back to ${window.until.toISOString()}, so its commits were read from the branch as it is now, up to then (work merged later with earlier dates may be counted)`,
        );
      }
      // The first page of history, from the tip chosen above.
      acc.historyCursor.set(repo, '');
    } catch (err) {
      if (err instanceof GitHubAuthError) throw err;
      acc.fail(`the tip of ${repo} at the window's end could not be read: ${(err as Error).message}`);
      return;
    }
  }
}

type EventKind = 'releases' | 'tags' | 'deployments';

function eventInstant(kind: EventKind, node: unknown): string | undefined {
  if (!node) return undefined;
  if (kind === 'releases') return (node as { createdAt: string }).createdAt;
  if (kind === 'deployments') return (node as { createdAt: string }).createdAt;
  return tagDate(node as TagNode);
}

/**
 * Further pages of each list of releases, tags and deployments whose first page is full and whose oldest event is
 * still inside the window, until the window's start is reached (at most MAX_EVENT_PAGES a list): no repository is
 * left out of the deploy evidence for being busy.
 */
async function followEvents(
  client: GitHubClient,
  accs: readonly OrgAccumulator[],
  window: CollectWindow,
  meter: Meter,
): Promise<void> {
  for (;;) {
    const wanted: { acc: OrgAccumulator; repo: string; kind: EventKind; cursor: string }[] = [];
    for (const acc of accs) {
      if (acc.failure) continue;
      for (const [repo, node] of acc.evidenceNodes) {
        for (const kind of ['releases', 'tags', 'deployments'] as const) {
          const page = node[kind] as EventPage<unknown> | null | undefined;
          if (!page?.pageInfo.hasNextPage || !page.pageInfo.endCursor) continue;
          const oldest = eventInstant(kind, present(page.nodes).at(-1));
          if (!oldest || dayOf(oldest) < window.from) continue;
          const pagesKey = `${repo}\u0000${kind}`;
          if ((acc.eventPages.get(pagesKey) ?? 0) >= MAX_EVENT_PAGES) continue;
          wanted.push({ acc, repo, kind, cursor: page.pageInfo.endCursor });
        }
      }
    }
    if (wanted.length === 0) return;
    await Promise.all(
      chunk(wanted, EVENT_LISTS_PER_QUERY).map(async (part) => {
        const variables: Record<string, unknown> = {};
        part.forEach((w, i) => {
          variables[`o${i}`] = w.acc.profile.login;
          variables[`n${i}`] = w.repo;
          variables[`c${i}`] = w.cursor;
        });
        let answer: { data: Record<string, { list: EventPage<unknown> | null } | null>; errors: GraphqlErrorItem[] };
        try {
          answer = await client.graphql(
            moreEventsQuery(part.map((w) => w.kind)),
            variables,
            part.length === 1 ? part[0]!.acc.meter : meter,
          );
        } catch (err) {
          if (err instanceof GitHubAuthError) throw err;
          for (const w of part) w.acc.fail(`releases, tags or deployments of ${w.repo}: ${(err as Error).message}`);
          return;
        }
        const { data, errors } = answer;
        part.forEach((w, i) => {
          const pagesKey = `${w.repo}\u0000${w.kind}`;
          w.acc.eventPages.set(pagesKey, (w.acc.eventPages.get(pagesKey) ?? 0) + 1);
          const node = w.acc.evidenceNodes.get(w.repo)!;
          const page = node[w.kind] as EventPage<unknown>;
          const more = data?.[`r${i}`]?.list;
          if (!more) {
            w.acc.notePartial(errors, `r${i}`);
            page.pageInfo = { hasNextPage: page.pageInfo.hasNextPage, endCursor: null };
            return;
          }
          page.nodes.push(...more.nodes);
          page.pageInfo = more.pageInfo;
        });
      }),
    );
  }
}

/**
 * The look-back: for every author of the collected commits (people only, by the addresses seen on their commits),
 * the newest commit in the NEW_CONTRIBUTOR_LOOKBACK_DAYS before the collected days, in each repository pushed since
 * the look-back began, read from the tip at the window's end.
 */
async function readLookback(client: GitHubClient, acc: OrgAccumulator, window: CollectWindow): Promise<void> {
  const since = addDays(window.from, -(NEW_CONTRIBUTOR_LOOKBACK_DAYS + WINDOW_DAYS));
  const lookback: AuthorLookback = { since, until: addDays(window.from, -1), lastSeen: {} };
  const authors = [...acc.emails].filter(([key]) => !isAutomationAuthor(key));
  for (const [key] of authors) lookback.lastSeen[key] = null;
  const repos = acc.repos.filter((r) => !r.fork && (acc.pushedAt.get(r.name) ?? '') >= `${since}T00:00:00Z`);
  const pairs = repos.flatMap((r) =>
    authors.map(([key, emails]) => ({
      repo: r.name,
      key,
      emails: [...emails].sort(),
      from: acc.tips.get(r.name)?.oid ?? acc.branches.get(r.name) ?? 'HEAD',
    })),
  );
  for (const part of chunk(pairs, LOOKBACK_PAIRS_PER_QUERY)) {
    const variables: Record<string, unknown> = { since: `${since}T00:00:00Z`, until: `${window.from}T00:00:00Z` };
    part.forEach((p, i) => {
      variables[`o${i}`] = acc.profile.login;
      variables[`n${i}`] = p.repo;
      variables[`x${i}`] = p.from;
      variables[`e${i}`] = p.emails;
    });
    const { data, errors } = await client.graphql<
      Record<string, { object: { history?: { nodes: ({ committedDate: string } | null)[] } } | null } | null>
    >(lookbackQuery(part.length), variables, acc.meter);
    if (errors.length) acc.notes.push(`the authors' look-back was partial (${errors[0]!.message})`);
    part.forEach((p, i) => {
      const node = present(data?.[`a${i}`]?.object?.history?.nodes).at(0);
      if (!node) return;
      const day = dayOf(node.committedDate);
      const known = lookback.lastSeen[p.key];
      if (!known || known < day) lookback.lastSeen[p.key] = day;
    });
  }
  acc.lookback = lookback;
}

/** The start of the period's earlier window, the start of its later window, and the period's end. */
function windowBounds(window: CollectWindow): Date[] {
  const end = window.until.getTime();
  return [new Date(end - 2 * WINDOW_DAYS * DAY_MS), new Date(end - WINDOW_DAYS * DAY_MS), window.until];
}

const COMPARE_STATUSES = new Set(['added', 'removed', 'modified', 'renamed', 'copied', 'changed']);

/**
 * The files each of the period's two windows changed, in every repository with commits in them: the branch's tips at
 * the windows' bounds (from its list of pushes, in one pass), then one comparison per window. A window whose tips
 * are not known (the list does not reach back) or whose branch did not exist at its start is left out: its evidence
 * then rests on whole repositories only.
 */
async function readChanges(client: GitHubClient, acc: OrgAccumulator, window: CollectWindow): Promise<void> {
  const bounds = windowBounds(window);
  for (const [repo, nodes] of acc.commits) {
    const branch = acc.branches.get(repo);
    if (!branch || !nodes.some((n) => Date.parse(n.committedDate) >= bounds[0]!.getTime())) continue;
    const tips =
      acc.boundTips.get(repo) ??
      (await client.branchTipsAt(acc.profile.login, repo, branch, bounds, MAX_TIP_PAGES, acc.meter));
    const windows: WindowChanges[] = [];
    for (let i = 0; i < 2; i++) {
      const base = tips[i]!;
      const head = tips[i + 1]!;
      if (!base.reached || !head.reached || !base.oid || !head.oid) continue;
      const from = isoDay(bounds[i]!);
      const until = isoDay(bounds[i + 1]!);
      if (base.oid === head.oid) {
        windows.push({ from, until, files: [], truncated: false });
        continue;
      }
      const compared = await client.compareFiles(acc.profile.login, repo, base.oid, head.oid, acc.meter);
      const files: FileChange[] = compared.files
        .filter((f) => COMPARE_STATUSES.has(f.status))
        .map((f) => ({
          path: f.filename,
          status: f.status as FileChange['status'],
          ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
          additions: f.additions,
          deletions: f.deletions,
        }))
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      windows.push({ from, until, files, truncated: compared.truncated });
    }
    if (windows.length) acc.changes.set(repo, windows);
  }
}

export async function collectOrgs(
  entries: readonly WatchlistEntry[],
  cache: ReadonlyMap<string, CachedOrg>,
  options: CollectOptions,
): Promise<BatchResult> {
  const { client, window } = options;
  const batchMeter = newMeter();
  const sinceIso = `${window.from}T00:00:00Z`;
  const untilIso = window.until.toISOString();
  const outcomes = new Map<string, OrgOutcome>();
  const orgMeters: Meter[] = [];
  let authFailure: GitHubAuthError | undefined;

  // 1. Conditional probes.
  const changed: { entry: WatchlistEntry; etag: string | null; meter: Meter }[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const login = entry.login.toLowerCase();
      const meter = newMeter();
      orgMeters.push(meter);
      const cached = cache.get(login);
      const reusable =
        cached && !options.fullRefresh && !cached.partial && cached.coversFrom <= window.from ? cached : undefined;
      try {
        const probe = await client.getConditional(
          'GET /orgs/{org}/repos',
          { org: entry.login, type: 'public', sort: 'pushed', direction: 'desc', per_page: 1 },
          reusable?.etag,
          meter,
        );
        if (probe.status === 304 && reusable) {
          outcomes.set(login, {
            login,
            status: 'unchanged',
            requests: meter.requests,
            digest: reusable.digest,
            coversFrom: reusable.coversFrom,
            coversUntil: window.collectedAt ?? window.until,
            probeEtag: reusable.etag,
          });
        } else {
          changed.push({ entry, etag: probe.etag, meter });
        }
      } catch (err) {
        if (err instanceof GitHubAuthError) authFailure = err;
        else if (err instanceof GitHubNotFoundError) {
          outcomes.set(login, {
            login,
            status: 'not_found',
            requests: meter.requests,
            message: `GitHub has no public organization "${entry.login}" (404): renamed, deleted, or a user account rather than an organization`,
          });
        } else {
          outcomes.set(login, { login, status: 'failed', requests: meter.requests, message: (err as Error).message });
        }
      }
    }),
  );
  if (authFailure) throw authFailure;

  // 2. First pages in batched GraphQL queries.
  const accs: OrgAccumulator[] = [];
  await Promise.all(
    chunk(changed, options.orgsPerQuery).map(async (group) => {
      const variables: Record<string, unknown> = { since: sinceIso, until: untilIso, withHistory: true };
      group.forEach((g, i) => (variables[`l${i}`] = g.entry.login));
      try {
        const { data, errors } = await client.graphql<Record<string, OrgNode | null>>(
          orgsQuery(group.length),
          variables,
          batchMeter,
        );
        group.forEach((g, i) => {
          const login = g.entry.login.toLowerCase();
          const org = data?.[`o${i}`];
          if (org) {
            const acc = new OrgAccumulator(g.entry, org, g.etag, sinceIso, options.maxCommitPages, window);
            orgMeters.push(acc.meter);
            acc.meter.requests += g.meter.requests;
            g.meter.requests = 0;
            acc.notePartial(errors, `o${i}`);
            if (org.repositories) acc.addRepoPage(org.repositories, true);
            else acc.fail(`GitHub answered no repositories: ${errorFor(errors, `o${i}`)?.message ?? 'empty answer'}`);
            accs.push(acc);
            return;
          }
          const error = errorFor(errors, `o${i}`);
          outcomes.set(
            login,
            error?.type === 'NOT_FOUND'
              ? {
                  login,
                  status: 'not_found',
                  requests: g.meter.requests,
                  message: `GitHub has no public organization "${g.entry.login}" (GraphQL NOT_FOUND: ${error.message})`,
                }
              : {
                  login,
                  status: 'failed',
                  requests: g.meter.requests,
                  message: `GitHub returned no data for "${g.entry.login}": ${error?.message ?? 'empty answer'}`,
                },
          );
        });
      } catch (err) {
        if (err instanceof GitHubAuthError) authFailure = err;
        for (const g of group) {
          const login = g.entry.login.toLowerCase();
          outcomes.set(login, { login, status: 'failed', requests: g.meter.requests, message: (err as Error).message });
        }
      }
    }),
  );
  if (authFailure) throw authFailure;

  // 3. Follow-up pages until every organisation and repository is complete (or failed): repositories; the tip at the
  // window's end of repositories pushed since; commit history from that tip.
  for (;;) {
    const live = accs.filter((a) => !a.failure);
    await Promise.all(live.map((a) => resolveTips(client, a, window)));
    const repoFollowUps = live.filter((a) => a.nextRepoCursor && !a.failure);
    const historyFollowUps = live
      .filter((a) => !a.failure)
      .flatMap((a) =>
        [...a.historyCursor].map(([repo, cursor]) => ({
          acc: a,
          repo,
          cursor: cursor || null,
          from: a.historyFrom.get(repo) ?? 'HEAD',
        })),
      );
    if (repoFollowUps.length === 0 && historyFollowUps.length === 0) break;
    const tasks: Promise<void>[] = [];
    for (const withHistory of [true, false]) {
      const group = repoFollowUps.filter((a) => a.nextRepoWithHistory === withHistory);
      for (const part of chunk(group, options.orgsPerQuery)) {
        tasks.push(
          (async () => {
            const variables: Record<string, unknown> = { since: sinceIso, until: untilIso, withHistory };
            part.forEach((a, i) => {
              variables[`l${i}`] = a.entry.login;
              variables[`c${i}`] = a.nextRepoCursor;
            });
            try {
              const { data, errors } = await client.graphql<
                Record<string, { repositories: RepoConnection | null } | null>
              >(moreReposQuery(part.length), variables, part.length === 1 ? part[0]!.meter : batchMeter);
              part.forEach((a, i) => {
                const repositories = data?.[`o${i}`]?.repositories;
                if (repositories) {
                  a.notePartial(errors, `o${i}`);
                  a.addRepoPage(repositories, withHistory);
                } else a.fail(`repositories page failed: ${errorFor(errors, `o${i}`)?.message ?? 'empty answer'}`);
              });
            } catch (err) {
              if (err instanceof GitHubAuthError) authFailure = err;
              for (const a of part) a.fail((err as Error).message);
            }
          })(),
        );
      }
    }
    for (const part of chunk(historyFollowUps, options.reposPerQuery ?? REPOS_PER_HISTORY_QUERY)) {
      tasks.push(
        (async () => {
          const variables: Record<string, unknown> = { since: sinceIso, until: untilIso };
          part.forEach((h, i) => {
            variables[`o${i}`] = h.acc.profile.login;
            variables[`n${i}`] = h.repo;
            variables[`x${i}`] = h.from;
            variables[`c${i}`] = h.cursor;
          });
          try {
            const { data, errors } = await client.graphql<
              Record<string, { object: { history?: HistoryConnection } | null } | null>
            >(moreHistoryQuery(part.length), variables, part.length === 1 ? part[0]!.acc.meter : batchMeter);
            part.forEach((h, i) => {
              const history = data?.[`r${i}`]?.object?.history;
              if (history) {
                h.acc.notePartial(errors, `r${i}`);
                h.acc.addHistory(h.repo, history);
              } else
                h.acc.fail(
                  `commit history of ${h.repo} failed: ${errorFor(errors, `r${i}`)?.message ?? 'empty answer'}`,
                );
            });
          } catch (err) {
            if (err instanceof GitHubAuthError) authFailure = err;
            for (const h of part) h.acc.fail((err as Error).message);
          }
        })(),
      );
    }
    await Promise.all(tasks);
    if (authFailure) throw authFailure;
  }

  // 3b. Releases, tags and deployments paged back to the window's start; the authors' look-back.
  await followEvents(client, accs, window, batchMeter);
  await Promise.all(
    accs
      .filter((a) => !a.failure)
      .map(async (a) => {
        try {
          await readLookback(client, a, window);
          await readChanges(client, a, window);
        } catch (err) {
          if (err instanceof GitHubAuthError) throw err;
          a.fail(`the authors' look-back or the changed files failed: ${(err as Error).message}`);
        }
      }),
  );

  // 4. Statistics for overflowing repositories, then the outcome of each organisation.
  await Promise.all(
    accs.map(async (acc) => {
      if (acc.failure) {
        outcomes.set(acc.login, {
          login: acc.login,
          status: 'failed',
          requests: acc.meter.requests,
          message: acc.failure,
        });
        return;
      }
      const statsDays = new Map<string, Map<string, number>>();
      try {
        for (const repo of [...acc.overflow].sort()) {
          const days = await statisticsFallback(client, acc, repo, window, options.maxCommitPages);
          if (days) statsDays.set(repo, days);
        }
      } catch (err) {
        if (err instanceof GitHubAuthError) authFailure = err;
        outcomes.set(acc.login, {
          login: acc.login,
          status: 'failed',
          requests: acc.meter.requests,
          message: (err as Error).message,
        });
        return;
      }
      outcomes.set(acc.login, {
        login: acc.login,
        status: acc.notes.length > 0 ? 'partial' : 'collected',
        message: acc.notes.length > 0 ? acc.notes.join('; ') : undefined,
        requests: acc.meter.requests,
        activity: buildActivity(acc, window, statsDays),
        coversFrom: window.from,
        // Nothing pushed since the window's end: the activity holds everything up to now, and a later 304 to the
        // probe shows it still does. Pushed since: it holds the window only, and the probe's ETag must not vouch
        // for it.
        coversUntil: acc.pushedAfterWindow ? window.until : (window.collectedAt ?? window.until),
        probeEtag: acc.pushedAfterWindow ? null : acc.probeEtag,
      });
    }),
  );
  if (authFailure) throw authFailure;

  const meter = orgMeters.reduce(
    (sum, m) => ({ requests: sum.requests + m.requests, notModified: sum.notModified + m.notModified }),
    batchMeter,
  );
  return {
    outcomes: entries.map((e) => outcomes.get(e.login.toLowerCase())!),
    meter,
  };
}
