import { addDays, isoDay } from '../../domain/periods.js';
import type { OrgOutcome } from '../../store/pipeline.js';
import { INFRA_ROOT_FILES, MANIFEST_ECOSYSTEMS } from '../../domain/rules.js';
import type { DailyCommits, RawOrgActivity, RepoRecord, WatchlistEntry } from '../../domain/records.js';
import { authorKey, UNATTRIBUTED_AUTHOR } from './authors.js';
import {
  GitHubAuthError,
  GitHubNotFoundError,
  newMeter,
  type GitHubClient,
  type GraphqlErrorItem,
  type Meter,
} from '../../github/client.js';
import {
  COMMITS_PER_PAGE,
  moreHistoryQuery,
  moreReposQuery,
  orgsQuery,
  type CommitNode,
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
 * Bots are not removed here: the filter stage does it, so raw activity stays raw.
 */

export interface CollectWindow {
  /** First UTC day collected (YYYY-MM-DD). */
  from: string;
  /** The collection instant: commits up to here are read. */
  until: Date;
}

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
        ...(withHistory ? repoEvidence(node, this.window) : {}),
      });
      const history = node.defaultBranchRef?.target?.history;
      if (withHistory && history) this.addHistory(node.name, history);
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
  const add = (date: string, repo: string, author: string, n: number) => {
    if (date < window.from || n <= 0) return;
    const key = `${date}\u0000${repo}\u0000${author}`;
    const row = counts.get(key);
    if (row) row.commits += n;
    else counts.set(key, { date, repo, author, commits: n });
  };
  for (const [repo, nodes] of acc.commits) {
    const fromStats = statsDays.get(repo);
    const boundary = fromStats ? [...fromStats.keys()].sort().at(-1)! : undefined;
    for (const node of nodes) {
      const date = dayOf(node.committedDate);
      // Days up to the boundary come from the statistics, whole, so commits read on them are not added twice.
      if (boundary && date <= boundary) continue;
      add(date, repo, authorKey(node.author), 1);
    }
    if (fromStats) for (const [date, n] of fromStats) add(date, repo, UNATTRIBUTED_AUTHOR, n);
  }
  const commits = [...counts.values()].sort(
    (a, b) =>
      (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
      (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0) ||
      (a.author < b.author ? -1 : a.author > b.author ? 1 : 0),
  );
  const repos = [...acc.repos].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { profile: acc.profile, repos, commits, version: 2 } satisfies RawOrgActivity;
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
            coversUntil: window.until,
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

  // 3. Follow-up pages until every organisation and repository is complete (or failed).
  for (;;) {
    const live = accs.filter((a) => !a.failure);
    const repoFollowUps = live.filter((a) => a.nextRepoCursor);
    const historyFollowUps = live.flatMap((a) =>
      [...a.historyCursor].map(([repo, cursor]) => ({ acc: a, repo, cursor })),
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
            variables[`c${i}`] = h.cursor;
          });
          try {
            const { data, errors } = await client.graphql<
              Record<string, { defaultBranchRef: { target: { history?: HistoryConnection } | null } | null } | null>
            >(moreHistoryQuery(part.length), variables, part.length === 1 ? part[0]!.acc.meter : batchMeter);
            part.forEach((h, i) => {
              const history = data?.[`r${i}`]?.defaultBranchRef?.target?.history;
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
        coversUntil: window.until,
        probeEtag: acc.probeEtag,
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
