import type { WatchlistEntry } from '../../domain/records.js';
import { GitHubAuthError, GitHubNotFoundError, newMeter, type GitHubClient, type Meter } from '../../github/client.js';
import type { OrgOutcome } from '../../store/pipeline.js';
import { OrgAccumulator } from './accumulator.js';
import { buildActivity, statisticsFallback } from './activity.js';
import { chunk, errorFor } from './answers.js';
import { readChanges } from './changes.js';
import { followEvents } from './events.js';
import { readLookback } from './lookback.js';
import {
  moreHistoryQuery,
  moreReposQuery,
  orgsQuery,
  type HistoryConnection,
  type OrgNode,
  type RepoConnection,
} from './queries.js';
import { resolveTips } from './tips.js';
import type { CollectWindow } from './window.js';

export type { CollectWindow } from './window.js';

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

/** What every step of one batch shares: the options, the window as GraphQL variables, and the meters. */
interface Batch {
  options: CollectOptions;
  sinceIso: string;
  untilIso: string;
  /** Requests sent for several organisations at once. */
  meter: Meter;
  /** Each organisation's own requests. */
  orgMeters: Meter[];
  outcomes: Map<string, OrgOutcome>;
}

/** An organisation whose probe says it must be read. */
interface Changed {
  entry: WatchlistEntry;
  etag: string | null;
  meter: Meter;
}

export async function collectOrgs(
  entries: readonly WatchlistEntry[],
  cache: ReadonlyMap<string, CachedOrg>,
  options: CollectOptions,
): Promise<BatchResult> {
  const batch: Batch = {
    options,
    sinceIso: `${options.window.from}T00:00:00Z`,
    untilIso: options.window.until.toISOString(),
    meter: newMeter(),
    orgMeters: [],
    outcomes: new Map(),
  };
  const changed = await probeOrgs(batch, entries, cache);
  const accs = await readFirstPages(batch, changed);
  await followPages(batch, accs);
  await readEvidence(batch, accs);
  await settleOutcomes(batch, accs);
  const meter = batch.orgMeters.reduce(
    (sum, m) => ({ requests: sum.requests + m.requests, notModified: sum.notModified + m.notModified }),
    batch.meter,
  );
  return {
    outcomes: entries.map((e) => batch.outcomes.get(e.login.toLowerCase())!),
    meter,
  };
}

/**
 * Conditional probes: an organisation whose stored activity can be reused and whose probe answers 304 is
 * unchanged; one GitHub does not know is not found; the others are to be read.
 */
async function probeOrgs(
  batch: Batch,
  entries: readonly WatchlistEntry[],
  cache: ReadonlyMap<string, CachedOrg>,
): Promise<Changed[]> {
  const { options, outcomes } = batch;
  const { client, window } = options;
  let authFailure: GitHubAuthError | undefined;
  const changed: Changed[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const login = entry.login.toLowerCase();
      const meter = newMeter();
      batch.orgMeters.push(meter);
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
  return changed;
}

/** First pages in batched GraphQL queries: profile, repositories and their history since the window's start. */
async function readFirstPages(batch: Batch, changed: readonly Changed[]): Promise<OrgAccumulator[]> {
  const { options, outcomes, sinceIso, untilIso } = batch;
  const { client, window } = options;
  let authFailure: GitHubAuthError | undefined;
  const accs: OrgAccumulator[] = [];
  await Promise.all(
    chunk(changed, options.orgsPerQuery).map(async (group) => {
      const variables: Record<string, unknown> = { since: sinceIso, until: untilIso, withHistory: true };
      group.forEach((g, i) => (variables[`l${i}`] = g.entry.login));
      try {
        const { data, errors } = await client.graphql<Record<string, OrgNode | null>>(
          orgsQuery(group.length),
          variables,
          batch.meter,
        );
        group.forEach((g, i) => {
          const login = g.entry.login.toLowerCase();
          const org = data?.[`o${i}`];
          if (org) {
            const acc = new OrgAccumulator(g.entry, org, g.etag, sinceIso, options.maxCommitPages, window);
            batch.orgMeters.push(acc.meter);
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
  return accs;
}

/**
 * Follow-up pages until every organisation and repository is complete (or failed): repositories; the tip at
 * the window's end of repositories pushed since; commit history from that tip.
 */
async function followPages(batch: Batch, accs: readonly OrgAccumulator[]): Promise<void> {
  const { client, window } = batch.options;
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
    const failures = await Promise.all([
      ...[true, false].flatMap((withHistory) =>
        chunk(
          repoFollowUps.filter((a) => a.nextRepoWithHistory === withHistory),
          batch.options.orgsPerQuery,
        ).map((part) => readRepoPages(batch, part, withHistory)),
      ),
      ...chunk(historyFollowUps, batch.options.reposPerQuery ?? REPOS_PER_HISTORY_QUERY).map((part) =>
        readHistoryPages(batch, part),
      ),
    ]);
    const authFailure = failures.findLast((f) => f !== undefined);
    if (authFailure) throw authFailure;
  }
}

/** The next page of repositories of each organisation of one query; an authentication failure is returned. */
async function readRepoPages(
  batch: Batch,
  part: readonly OrgAccumulator[],
  withHistory: boolean,
): Promise<GitHubAuthError | undefined> {
  const variables: Record<string, unknown> = { since: batch.sinceIso, until: batch.untilIso, withHistory };
  part.forEach((a, i) => {
    variables[`l${i}`] = a.entry.login;
    variables[`c${i}`] = a.nextRepoCursor;
  });
  try {
    const { data, errors } = await batch.options.client.graphql<
      Record<string, { repositories: RepoConnection | null } | null>
    >(moreReposQuery(part.length), variables, part.length === 1 ? part[0]!.meter : batch.meter);
    part.forEach((a, i) => {
      const repositories = data?.[`o${i}`]?.repositories;
      if (repositories) {
        a.notePartial(errors, `o${i}`);
        a.addRepoPage(repositories, withHistory);
      } else a.fail(`repositories page failed: ${errorFor(errors, `o${i}`)?.message ?? 'empty answer'}`);
    });
  } catch (err) {
    for (const a of part) a.fail((err as Error).message);
    if (err instanceof GitHubAuthError) return err;
  }
  return undefined;
}

/** The next page of commit history of each repository of one query; an authentication failure is returned. */
async function readHistoryPages(
  batch: Batch,
  part: readonly { acc: OrgAccumulator; repo: string; cursor: string | null; from: string }[],
): Promise<GitHubAuthError | undefined> {
  const variables: Record<string, unknown> = { since: batch.sinceIso, until: batch.untilIso };
  part.forEach((h, i) => {
    variables[`o${i}`] = h.acc.profile.login;
    variables[`n${i}`] = h.repo;
    variables[`x${i}`] = h.from;
    variables[`c${i}`] = h.cursor;
  });
  try {
    const { data, errors } = await batch.options.client.graphql<
      Record<string, { object: { history?: HistoryConnection } | null } | null>
    >(moreHistoryQuery(part.length), variables, part.length === 1 ? part[0]!.acc.meter : batch.meter);
    part.forEach((h, i) => {
      const history = data?.[`r${i}`]?.object?.history;
      if (history) {
        h.acc.notePartial(errors, `r${i}`);
        h.acc.addHistory(h.repo, history);
      } else h.acc.fail(`commit history of ${h.repo} failed: ${errorFor(errors, `r${i}`)?.message ?? 'empty answer'}`);
    });
  } catch (err) {
    for (const h of part) h.acc.fail((err as Error).message);
    if (err instanceof GitHubAuthError) return err;
  }
  return undefined;
}

/** Releases, tags and deployments paged back to the window's start; the authors' look-back; changed files. */
async function readEvidence(batch: Batch, accs: readonly OrgAccumulator[]): Promise<void> {
  const { client, window } = batch.options;
  await followEvents(client, accs, window, batch.meter);
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
}

/** Statistics for overflowing repositories, then the outcome of each organisation read. */
async function settleOutcomes(batch: Batch, accs: readonly OrgAccumulator[]): Promise<void> {
  const { options, outcomes } = batch;
  const { client, window } = options;
  let authFailure: GitHubAuthError | undefined;
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
}
