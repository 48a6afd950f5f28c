import { isoDay } from '../../domain/periods.js';
import type { FileChange, WindowChanges } from '../../domain/records.js';
import type { GitHubClient } from '../../github/client.js';
import type { OrgAccumulator } from './accumulator.js';
import { MAX_TIP_PAGES } from './tips.js';
import { windowBounds, type CollectWindow } from './window.js';

const COMPARE_STATUSES = new Set(['added', 'removed', 'modified', 'renamed', 'copied', 'changed']);

/**
 * The files each of the period's two windows changed, in every repository with commits in them: the branch's tips at
 * the windows' bounds (from its list of pushes, in one pass), then one comparison per window. A window whose tips
 * are not known (the list does not reach back) or whose branch did not exist at its start is left out: its evidence
 * then rests on whole repositories only.
 */
export async function readChanges(client: GitHubClient, acc: OrgAccumulator, window: CollectWindow): Promise<void> {
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
