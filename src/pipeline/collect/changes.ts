import { DAY_MS, isoDay } from '../../domain/periods.js';
import type { FileChange, WindowChanges } from '../../domain/records.js';
import type { GitHubClient } from '../../github/client.js';
import type { OrgAccumulator } from './accumulator.js';
import { MAX_TIP_PAGES } from './tips.js';
import { windowBounds, type CollectWindow } from './window.js';

const COMPARE_STATUSES = new Set(['added', 'removed', 'modified', 'renamed', 'copied', 'changed']);

/** A span of days is split in two while its comparison lists all GitHub lists, down to spans of this many days. */
const MIN_SPLIT_DAYS = 1;

type Compared = { files: FileChange[]; truncated: boolean };

function asChanges(
  files: readonly {
    filename: string;
    status: string;
    previous_filename?: string;
    additions: number;
    deletions: number;
  }[],
): FileChange[] {
  return files
    .filter((f) => COMPARE_STATUSES.has(f.status))
    .map((f) => ({
      path: f.filename,
      status: f.status as FileChange['status'],
      ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
      additions: f.additions,
      deletions: f.deletions,
    }));
}

/**
 * The changes of consecutive spans as one comparison of the whole would list them: per path, the lines added and
 * removed summed; a file added and then removed is gone; a renamed file keeps the first name it had.
 */
export function foldChanges(spans: readonly FileChange[][]): FileChange[] {
  const byPath = new Map<string, FileChange & { first: FileChange['status'] }>();
  for (const files of spans) {
    for (const f of files) {
      const from = f.previousPath ? byPath.get(f.previousPath) : undefined;
      if (from) byPath.delete(f.previousPath!);
      const known = from ?? byPath.get(f.path);
      if (!known) {
        byPath.set(f.path, { ...f, first: f.status });
        continue;
      }
      if (known.first === 'added' && f.status === 'removed') {
        byPath.delete(f.path);
        continue;
      }
      const status: FileChange['status'] =
        known.first === 'added'
          ? 'added'
          : f.status === 'removed'
            ? 'removed'
            : known.first === 'renamed' || f.status === 'renamed'
              ? 'renamed'
              : 'modified';
      const previousPath = known.previousPath ?? f.previousPath;
      byPath.set(f.path, {
        path: f.path,
        status,
        ...(previousPath && previousPath !== f.path ? { previousPath } : {}),
        additions: known.additions + f.additions,
        deletions: known.deletions + f.deletions,
        first: known.first,
      });
    }
  }
  return [...byPath.values()].map(({ first: _first, ...f }) => f);
}

/**
 * The files changed between two tips of a branch, from `from` to `until`. GitHub lists at most 300 files in a
 * comparison; when a span changed more, it is split in two at a day between, each half compared from the branch's
 * tips then (one more pass over the list of pushes), and the halves folded, down to spans of a day: a busy window's
 * infrastructure or migration files are not lost behind the first 300 of its other files.
 */
async function spanChanges(
  client: GitHubClient,
  acc: OrgAccumulator,
  repo: string,
  branch: string,
  span: { from: Date; until: Date; base: string; head: string },
): Promise<Compared> {
  if (span.base === span.head) return { files: [], truncated: false };
  const compared = await client.compareFiles(acc.profile.login, repo, span.base, span.head, acc.meter);
  const days = Math.round((span.until.getTime() - span.from.getTime()) / DAY_MS);
  if (!compared.truncated || days <= MIN_SPLIT_DAYS) {
    return { files: asChanges(compared.files), truncated: compared.truncated };
  }
  const mid = new Date(span.from.getTime() + Math.floor(days / 2) * DAY_MS);
  const [tip] = await client.branchTipsAt(acc.profile.login, repo, branch, [mid], MAX_TIP_PAGES, acc.meter);
  if (!tip?.reached || !tip.oid) return { files: asChanges(compared.files), truncated: true };
  const first = await spanChanges(client, acc, repo, branch, { ...span, until: mid, head: tip.oid });
  const second = await spanChanges(client, acc, repo, branch, { ...span, from: mid, base: tip.oid });
  return { files: foldChanges([first.files, second.files]), truncated: first.truncated || second.truncated };
}

/**
 * The files each of the period's two windows changed, in every repository with commits in them: the branch's tips at
 * the windows' bounds (from its list of pushes, in one pass), then one comparison per window (split where GitHub's
 * list of files is cut short, see spanChanges). A window whose tips are not known (the list does not reach back) or
 * whose branch did not exist at its start is left out: its evidence then rests on whole repositories only.
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
      const changed = await spanChanges(client, acc, repo, branch, {
        from: bounds[i]!,
        until: bounds[i + 1]!,
        base: base.oid,
        head: head.oid,
      });
      windows.push({
        from: isoDay(bounds[i]!),
        until: isoDay(bounds[i + 1]!),
        files: changed.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
        truncated: changed.truncated,
      });
    }
    if (windows.length) acc.changes.set(repo, windows);
  }
}
