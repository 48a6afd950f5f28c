import { addDays, isoDay } from '../../domain/periods.js';
import type { DailyCommits, RawOrgActivity, RepoRecord } from '../../domain/records.js';
import type { GitHubClient } from '../../github/client.js';
import type { OrgAccumulator } from './accumulator.js';
import { dayOf } from './answers.js';
import { authorKey, UNATTRIBUTED_AUTHOR } from './authors.js';
import { peopleAddresses } from './addresses.js';
import { repoEvidence } from './evidence.js';
import { COMMITS_PER_PAGE } from './queries.js';
import type { CollectWindow } from './window.js';

/** Folds commits into per-day, per-repository, per-author counts, sorted so equal activity has equal bytes. */
export function buildActivity(acc: OrgAccumulator, window: CollectWindow, statsDays: Map<string, Map<string, number>>) {
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
    ...(acc.lookback ? { lookback: acc.lookback, addresses: peopleAddresses(acc.emails) } : {}),
  } satisfies RawOrgActivity;
}

/**
 * Counts the days of an overflowing repository that the commit pages did not reach, from GitHub's statistics.
 * Returns the per-day counts to use (keyed by day, up to and including the oldest day the pages reached).
 */
export async function statisticsFallback(
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
