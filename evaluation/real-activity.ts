import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { addDays, DAY_MS, isoDay, parsePeriodSlug, periodEnd, type PeriodRef } from '../src/domain/periods.js';
import { WINDOW_DAYS } from '../src/domain/rules.js';
import { SIGNAL_TYPES, type SignalType } from '../src/schemas/enums.js';

/**
 * The real-activity evaluation sets (data/eval/real-activity*): organisation-weeks of watchlist organisations, their
 * default-branch git history with people pseudonymised, and the label an independent reader gave each week before
 * the rules were changed. This module reads a set and turns a fixture into what the tests' fake GitHub serves.
 */

const EVAL_DIR = join(import.meta.dirname, '..', 'data', 'eval');
/** The first set, labelled before rule evidence-v3 was written (its dev half was read while writing it). */
export const REAL_ACTIVITY_DIR = join(EVAL_DIR, 'real-activity');
/** The second set, of other organisations, labelled point in time after evidence-v3 and before any rule changed. */
export const REAL_ACTIVITY_2_DIR = join(EVAL_DIR, 'real-activity-2');
/** The third set, of other organisations again, labelled point in time while evidence-v4 was written, unseen by it. */
export const REAL_ACTIVITY_3_DIR = join(EVAL_DIR, 'real-activity-3');
/** The fourth set, of other organisations again, labelled point in time while set 3's misses were read. */
export const REAL_ACTIVITY_4_DIR = join(EVAL_DIR, 'real-activity-4');
/** The fifth set, of other organisations again, labelled point in time on evidence-v4 as committed, unseen by it. */
export const REAL_ACTIVITY_5_DIR = join(EVAL_DIR, 'real-activity-5');
/** The sixth set, of other organisations again, labelled point in time while evidence-v5 was written, unseen by it. */
export const REAL_ACTIVITY_6_DIR = join(EVAL_DIR, 'real-activity-6');
/** The seventh set, of other organisations again, labelled point in time while evidence-v6 was written, unseen by it. */
export const REAL_ACTIVITY_7_DIR = join(EVAL_DIR, 'real-activity-7');

export type RealLabel = SignalType | 'none';

export interface RealWeek {
  /** The set's directory (not in the labels file: added on reading). */
  dir: string;
  org: string;
  period: string;
  label: RealLabel;
  clarity: 'clear' | 'unclear';
  split: 'dev' | 'test';
  rationale: string;
}

export interface FixturePerson {
  name: string;
  email: string;
  login: string | null;
}

export interface FixtureCommit {
  oid: string;
  parents: string[];
  authorDate: string;
  committedDate: string;
  author: FixturePerson;
  committer: FixturePerson;
  coAuthors: FixturePerson[];
  files?: { path: string; status: string; previousPath?: string; additions: number; deletions: number }[];
}

export interface FixtureRepo {
  name: string;
  defaultBranch: string;
  headOid: string;
  /** The default branch's tip at the kept range's end (fixtures extracted since it was recorded; null: not kept). */
  tipOid?: string | null;
  createdAt: string;
  commits: FixtureCommit[];
  tags: { name: string; oid: string; date: string; annotated: boolean }[];
}

export interface OrgFixture {
  org: string;
  extractedFrom: { repo: string; snapshotHead: string; snapshotDate: string }[];
  repos: FixtureRepo[];
}

export function realWeeks(dir = REAL_ACTIVITY_DIR): RealWeek[] {
  const rows = parse(readFileSync(join(dir, 'labels.yaml'), 'utf8')) as Omit<RealWeek, 'dir'>[];
  for (const w of rows) {
    if (w.label !== 'none' && !SIGNAL_TYPES.includes(w.label)) throw new Error(`unknown label ${w.label} (${w.org})`);
  }
  return rows.map((w) => ({ dir, ...w }));
}

export function loadFixture(org: string, dir = REAL_ACTIVITY_DIR): OrgFixture {
  return JSON.parse(gunzipSync(readFileSync(join(dir, 'orgs', `${org.toLowerCase()}.json.gz`))).toString());
}

/**
 * When each commit reached the default branch, from the graph alone (git keeps no push times): a commit on the
 * first-parent chain of the tip landed at its own committer date; a commit brought in by a merge landed when that
 * merge was committed (the earliest such merge). This is how the branch's history reads in git, and what the fake's
 * list of pushes replays.
 */
export function landingTimes(repo: FixtureRepo): Map<string, string> {
  const byOid = new Map(repo.commits.map((c) => [c.oid, c]));
  const chain: FixtureCommit[] = [];
  for (let c = byOid.get(branchTip(repo)); c; c = byOid.get(c.parents[0] ?? '')) chain.push(c);
  const landed = new Map<string, string>();
  for (const m of chain.reverse()) {
    landed.set(m.oid, m.committedDate);
    const queue = m.parents.slice(1);
    while (queue.length) {
      const oid = queue.pop()!;
      const c = byOid.get(oid);
      if (!c || landed.has(oid)) continue;
      landed.set(oid, m.committedDate);
      queue.push(...c.parents);
    }
  }
  return landed;
}

/**
 * The newest kept commit of the branch: the snapshot's tip when it is kept, else the branch's tip at the kept range's
 * end as the extraction recorded it, else (older fixtures) the newest commit that no kept commit has as a parent,
 * which may be on a branch merged only after the range.
 */
export function branchTip(repo: FixtureRepo): string {
  if (repo.commits.some((c) => c.oid === repo.headOid)) return repo.headOid;
  if (repo.tipOid && repo.commits.some((c) => c.oid === repo.tipOid)) return repo.tipOid;
  const parents = new Set(repo.commits.flatMap((c) => c.parents));
  const heads = repo.commits.filter((c) => !parents.has(c.oid));
  heads.sort((a, b) => (a.committedDate < b.committedDate ? 1 : a.committedDate > b.committedDate ? -1 : 0));
  return heads[0]?.oid ?? '';
}

/** A repository's name without its owner (the fixture names it `owner/name`). */
export function repoName(repo: FixtureRepo): string {
  return repo.name.split('/').at(-1)!;
}

/** The collect window of a week as a run collects it: 35 days up to the period's end. */
export function collectWindowOf(period: PeriodRef): { from: string; until: Date } {
  return { from: addDays(isoDay(periodEnd(period)), -35), until: periodEnd(period) };
}

export function periodOf(week: RealWeek): PeriodRef {
  return parsePeriodSlug(week.period);
}

/**
 * The share of a week's work that the default branch held at the period's end: of the non-merge commits whose
 * committer date falls in the week's current window (its last 14 days), those that had landed on the default branch
 * by then (landingTimes). A reader dates work by its commits, as the history reads today; a point-in-time record
 * sees a commit only once it has landed, so a week whose work landed later is judged on different activity by the
 * two. Computed from the fixture alone, whatever the rules.
 */
export function visibleShare(week: RealWeek, fixture: OrgFixture = loadFixture(week.org, week.dir)): number {
  const end = periodEnd(periodOf(week)).getTime();
  const start = end - WINDOW_DAYS * DAY_MS;
  let commits = 0;
  let landed = 0;
  for (const repo of fixture.repos) {
    const landing = landingTimes(repo);
    for (const c of repo.commits) {
      const t = Date.parse(c.committedDate);
      if (t < start || t >= end || c.parents.length > 1) continue;
      commits++;
      const at = landing.get(c.oid);
      if (at !== undefined && Date.parse(at) < end) landed++;
    }
  }
  return commits === 0 ? 1 : landed / commits;
}

/** A week whose work was mostly on the default branch by its end: at least half of it (see visibleShare). */
export const VISIBLE_AT_END_MIN_SHARE = 0.5;
