import { addDays } from '../domain/periods.js';
import { isAutomationAuthor } from '../domain/automation.js';
import { LOOKBACK_DAYS, WINDOW_DAYS } from '../domain/rules.js';
import type { DailyCommits, FilteredActivity, RawOrgActivity } from '../domain/records.js';

/** Automation accounts and AI agents (domain/automation.ts): their commits are never a person's. */
export function isBotAuthor(author: string): boolean {
  return isAutomationAuthor(author);
}

/**
 * Stage 2, filter: keep public non-fork repositories; drop commits to unknown repositories (forks or repositories gone
 * since), outside the 28-day look-back that ends the day before `windowEnd`, by automation and AI agents, and merge
 * commits (a merge records that work landed; the work is counted in the commits it brings in). What was left out of
 * the current window is counted, so the evidence can say so.
 */
export function filterActivity(raw: RawOrgActivity, windowEnd: string): FilteredActivity {
  const repos = raw.repos.filter((repo) => !repo.fork);
  const kept = new Set(repos.map((repo) => repo.name));
  const firstDay = addDays(windowEnd, -LOOKBACK_DAYS);
  const currentStart = addDays(windowEnd, -WINDOW_DAYS);
  let automationCommitsCurrent = 0;
  let mergeCommitsCurrent = 0;
  const commits: DailyCommits[] = [];
  const earlier: Record<string, string> = {};
  for (const c of raw.commits) {
    if (c.commits <= 0 || !kept.has(c.repo) || c.date >= windowEnd) continue;
    if (c.date < firstDay) {
      // Collected days before the windows belong to the authors' look-back.
      const k = c.author.toLowerCase();
      if (!isBotAuthor(c.author) && (earlier[k] ?? '') < c.date) earlier[k] = c.date;
      continue;
    }
    const current = c.date >= currentStart;
    if (isBotAuthor(c.author)) {
      if (current) automationCommitsCurrent += c.commits;
      continue;
    }
    const merges = Math.min(c.merges ?? 0, c.commits);
    if (current) mergeCommitsCurrent += merges;
    if (merges === c.commits) continue;
    commits.push(merges > 0 ? { date: c.date, repo: c.repo, author: c.author, commits: c.commits - merges } : c);
  }
  return {
    profile: raw.profile,
    repos,
    commits,
    ...(raw.version ? { version: raw.version } : {}),
    ...(raw.version === 3
      ? { lookback: raw.lookback, earlierLastSeen: earlier, automationCommitsCurrent, mergeCommitsCurrent }
      : {}),
    ...(raw.version === 3 && raw.addresses ? { addresses: raw.addresses } : {}),
  };
}
