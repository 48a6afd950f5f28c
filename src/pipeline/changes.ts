import {
  FRAMEWORK_CONFIGS,
  INFRA_PATH_PATTERNS,
  LANGUAGE_BY_EXTENSION,
  LOOKBACK_DAYS,
  WINDOW_DAYS,
} from '../domain/rules.js';
import { addDays } from '../domain/periods.js';
import type { FileChange, FilteredActivity } from '../domain/records.js';

/**
 * Evidence from the files each window changed inside repositories (version 3 activity): infrastructure work wherever
 * it sits, code moving from one language to another, and a framework or build tool replaced by another.
 */

export interface PathEvidence {
  /** Whether both windows' changes are known for every repository with commits in them. */
  known: boolean;
  infraFilesCurrent: number;
  infraFilesPrior: number;
  /** Lines added and removed in infrastructure files in the current window, and in all files. */
  infraChurnCurrent: number;
  churnCurrent: number;
  /** Infrastructure paths changed in the current window (at most 20), as `repo:path`. */
  infraPaths: string[];
  /** The largest move of files between two languages in the current window. */
  moved: { from: string; to: string; files: number } | null;
  /** Framework or build tools replaced in the current window: one removed and one of the same kind added. */
  swaps: { kind: string; from: string; to: string }[];
}

export function isInfrastructurePath(path: string): boolean {
  return INFRA_PATH_PATTERNS.some((p) => p.test(path));
}

export function languageOfPath(path: string): string | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext ? LANGUAGE_BY_EXTENSION[ext] : undefined;
}

function frameworkOf(path: string): { kind: string; name: string } | undefined {
  return FRAMEWORK_CONFIGS.find((f) => f.file.test(path));
}

/**
 * How many files went from one language to another: a file renamed to another language's extension, or removed and
 * added again at the same path with another language's extension (`src/a.js` → `src/a.ts`). Files removed in one
 * language and others added in another are not a move: a large repository does both every week.
 */
export function languageMoves(files: readonly FileChange[]): { from: string; to: string; files: number } | null {
  const stem = (path: string) => path.replace(/\.[a-z0-9]+$/i, '');
  const moves = new Map<string, number>();
  const count = (from: string | undefined, to: string | undefined) => {
    if (from && to && from !== to) moves.set(`${from}\u0000${to}`, (moves.get(`${from}\u0000${to}`) ?? 0) + 1);
  };
  const removed = new Map<string, string>();
  for (const f of files) {
    if (f.status === 'renamed' && f.previousPath) count(languageOfPath(f.previousPath), languageOfPath(f.path));
    else if (f.status === 'removed') {
      const lang = languageOfPath(f.path);
      if (lang) removed.set(stem(f.path), lang);
    }
  }
  for (const f of files) if (f.status === 'added') count(removed.get(stem(f.path)), languageOfPath(f.path));
  let best: { from: string; to: string; files: number } | null = null;
  for (const [pair, n] of [...moves].sort()) {
    const [from, to] = pair.split('\u0000') as [string, string];
    if (!best || n > best.files) best = { from, to, files: n };
  }
  return best;
}

export function frameworkSwaps(files: readonly FileChange[]): { kind: string; from: string; to: string }[] {
  const gone = new Map<string, Set<string>>();
  const came = new Map<string, Set<string>>();
  for (const f of files) {
    const was = f.status === 'renamed' && f.previousPath ? frameworkOf(f.previousPath) : undefined;
    const now = frameworkOf(f.path);
    if ((f.status === 'removed' && now) || (was && was.name !== now?.name)) {
      const fw = was ?? now!;
      gone.set(fw.kind, (gone.get(fw.kind) ?? new Set()).add(fw.name));
    }
    if ((f.status === 'added' || f.status === 'renamed' || f.status === 'copied') && now && was?.name !== now.name) {
      came.set(now.kind, (came.get(now.kind) ?? new Set()).add(now.name));
    }
  }
  const swaps: { kind: string; from: string; to: string }[] = [];
  for (const [kind, names] of gone) {
    const arrived = [...(came.get(kind) ?? [])].filter((n) => !names.has(n)).sort();
    const left = [...names].filter((n) => !came.get(kind)?.has(n)).sort();
    if (arrived.length && left.length) swaps.push({ kind, from: left[0]!, to: arrived[0]! });
  }
  return swaps.sort((a, b) => a.kind.localeCompare(b.kind));
}

export function pathEvidence(activity: FilteredActivity, windowEnd: string): PathEvidence {
  const currentStart = addDays(windowEnd, -WINDOW_DAYS);
  const priorStart = addDays(windowEnd, -LOOKBACK_DAYS);
  const active = new Set(activity.commits.map((c) => c.repo));
  let known = active.size > 0;
  const current: FileChange[] = [];
  let infraFilesCurrent = 0;
  let infraFilesPrior = 0;
  let infraChurnCurrent = 0;
  let churnCurrent = 0;
  const infraPaths: string[] = [];
  for (const repo of activity.repos) {
    const windows = repo.changes ?? [];
    const cur = windows.find((w) => w.from === currentStart && w.until === windowEnd);
    const pri = windows.find((w) => w.from === priorStart && w.until === currentStart);
    if (active.has(repo.name) && (!cur || !pri)) known = false;
    for (const f of cur?.files ?? []) {
      current.push(f);
      churnCurrent += f.additions + f.deletions;
      if (!isInfrastructurePath(f.path)) continue;
      infraFilesCurrent++;
      infraChurnCurrent += f.additions + f.deletions;
      if (infraPaths.length < 20) infraPaths.push(`${repo.name}:${f.path}`);
    }
    for (const f of pri?.files ?? []) if (isInfrastructurePath(f.path)) infraFilesPrior++;
  }
  return {
    known,
    infraFilesCurrent,
    infraFilesPrior,
    infraChurnCurrent,
    churnCurrent,
    infraPaths,
    moved: languageMoves(current),
    swaps: frameworkSwaps(current),
  };
}
