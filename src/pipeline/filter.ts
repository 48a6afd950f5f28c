import { addDays } from '../domain/periods.js';
import { BOT_LOGIN_PATTERN, LOOKBACK_DAYS } from '../domain/rules.js';
import type { FilteredActivity, RawOrgActivity } from '../domain/records.js';

export function isBotAuthor(author: string): boolean {
  return BOT_LOGIN_PATTERN.test(author);
}

/**
 * Stage 2, filter: keep public non-fork repositories, drop commits by bots, by unknown repositories (forks or
 * repositories gone since), and outside the 28-day look-back that ends the day before `windowEnd`.
 */
export function filterActivity(raw: RawOrgActivity, windowEnd: string): FilteredActivity {
  const repos = raw.repos.filter((repo) => !repo.fork);
  const kept = new Set(repos.map((repo) => repo.name));
  const firstDay = addDays(windowEnd, -LOOKBACK_DAYS);
  const commits = raw.commits.filter(
    (c) => c.commits > 0 && kept.has(c.repo) && !isBotAuthor(c.author) && c.date >= firstDay && c.date < windowEnd,
  );
  return { profile: raw.profile, repos, commits, ...(raw.version ? { version: raw.version } : {}) };
}
