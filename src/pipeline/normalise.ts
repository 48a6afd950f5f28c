import { addDays } from '../domain/periods.js';
import { evidenceMetrics } from './evidence.js';
import { normaliseGeography } from './geography.js';
import { NEW_REPO_DAYS, WINDOW_DAYS } from '../domain/rules.js';
import type { FilteredActivity, OrgMetrics } from '../domain/records.js';

/**
 * Stage 3, normalise: turn filtered activity into the window counts every later stage uses. The current window is
 * the 14 days before `windowEnd`, the prior window the 14 days before that; `windowEnd` itself is excluded.
 */
export function normaliseActivity(activity: FilteredActivity, windowEnd: string): OrgMetrics {
  const currentStart = addDays(windowEnd, -WINDOW_DAYS);
  let commitsCurrent = 0;
  let commitsPrior = 0;
  const authorsCurrent = new Set<string>();
  const authorsPrior = new Set<string>();
  for (const c of activity.commits) {
    if (c.date >= currentStart) {
      commitsCurrent += c.commits;
      authorsCurrent.add(c.author.toLowerCase());
    } else {
      commitsPrior += c.commits;
      authorsPrior.add(c.author.toLowerCase());
    }
  }

  const newSince = `${addDays(windowEnd, -NEW_REPO_DAYS)}T00:00:00Z`;
  const windowEndInstant = `${windowEnd}T00:00:00Z`;
  const isNew = (createdAt: string) =>
    Date.parse(createdAt) >= Date.parse(newSince) && Date.parse(createdAt) < Date.parse(windowEndInstant);
  const newRepos = activity.repos.filter((r) => isNew(r.createdAt));
  const established = new Set(
    activity.repos
      .filter((r) => Date.parse(r.createdAt) < Date.parse(newSince) && r.language)
      .map((r) => r.language!.toLowerCase()),
  );
  const newLanguages = [
    ...new Set(
      newRepos.filter((r) => r.language && !established.has(r.language.toLowerCase())).map((r) => r.language!),
    ),
  ].sort();

  return {
    commitsCurrent,
    commitsPrior,
    contributorsCurrent: authorsCurrent.size,
    contributorsPrior: authorsPrior.size,
    contributors28d: new Set([...authorsCurrent, ...authorsPrior]).size,
    newRepos30d: newRepos.length,
    // A language counts as new only when the org already had established repositories to compare against.
    newLanguages: established.size > 0 ? newLanguages : [],
    geography: normaliseGeography(activity.profile.location),
    ...(activity.version === 2 || activity.version === 3
      ? { evidence: evidenceMetrics(activity, windowEnd, authorsCurrent, authorsPrior) }
      : {}),
  };
}
