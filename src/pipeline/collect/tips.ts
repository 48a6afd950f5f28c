import { GitHubAuthError, type GitHubClient } from '../../github/client.js';
import type { OrgAccumulator } from './accumulator.js';
import { windowBounds, type CollectWindow } from './window.js';

/** Pages of a repository's list of pushes read to find its tips (100 pushes a page): a busy repository collected a year later needs dozens. */
export const MAX_TIP_PAGES = 50;

/**
 * The tip at the window's end of each repository pushed since: from its list of pushes. When the list reaches back
 * to the end, the history is read from that tip (a branch that did not exist then has no commits); otherwise from
 * the branch as it is now, up to the end, with a note that work merged later with earlier dates may be counted.
 */
export async function resolveTips(client: GitHubClient, acc: OrgAccumulator, window: CollectWindow): Promise<void> {
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
