import { addDays, DAY_MS } from '../domain/periods.js';
import { pathEvidence } from './changes.js';
import {
  DEPLOY_BASELINE_WINDOWS,
  DEPLOY_RHYTHM_MIN_DAYS,
  FRAMEWORK_MIGRATION_MIN_COMMITS,
  PLACEHOLDER_VERSION,
  PRERELEASE_VERSION,
  NEW_CONTRIBUTOR_JOIN_DAYS,
  NEW_CONTRIBUTOR_LOOKBACK_DAYS,
  NEW_REGULAR_MIN_COMMITS,
  NEW_REGULAR_MIN_DAYS,
  TEAM_DOMAIN_MIN_MEMBERS,
  INFRA_LANGUAGES,
  INFRA_ROOT_FILES,
  INFRA_TOPICS,
  LOOKBACK_DAYS,
  MANIFEST_ECOSYSTEMS,
  NEW_REPO_DAYS,
  WINDOW_DAYS,
} from '../domain/rules.js';
import type {
  ContributorEvidence,
  DeployEventEvidence,
  EvidenceMetrics,
  FilteredActivity,
  RepoRecord,
} from '../domain/records.js';

/**
 * The evidence behind each signal type, counted from filtered activity that carries it (version 2): deploy days,
 * new and departed contributors, infrastructure repositories and their commits, and how far the commit mix moved
 * between languages and dependency ecosystems. Windows as in normalise: the current window is the 14 days before
 * `windowEnd`, the prior window the 14 days before that.
 */

const infraLanguages = new Set(INFRA_LANGUAGES.map((l) => l.toLowerCase()));
const infraTopics = new Set(INFRA_TOPICS);
const infraFiles = new Set(INFRA_ROOT_FILES.map((f) => f.toLowerCase()));

/** A repository whose code is infrastructure: by its languages, its topics or the files at its root. */
export function isInfrastructureRepo(repo: RepoRecord): boolean {
  if (repo.language && infraLanguages.has(repo.language.toLowerCase())) return true;
  const bytes = Object.entries(repo.languages ?? {});
  const total = bytes.reduce((n, [, b]) => n + b, 0);
  const infra = bytes.reduce((n, [l, b]) => n + (infraLanguages.has(l.toLowerCase()) ? b : 0), 0);
  if (total > 0 && infra * 2 >= total) return true;
  if ((repo.topics ?? []).some((t) => infraTopics.has(t.toLowerCase()))) return true;
  return (repo.markers ?? []).some((m) => infraFiles.has(m.toLowerCase()) || /\.tf$/i.test(m));
}

/** The dependency ecosystems a repository declares with manifests at its root, sorted. */
export function ecosystemsOf(repo: RepoRecord): string[] {
  const found = new Set<string>();
  for (const m of repo.markers ?? []) {
    const eco = MANIFEST_ECOSYSTEMS[m];
    if (eco) found.add(eco);
  }
  return [...found].sort();
}

/** A repository's languages as shares of its code: by bytes when known, else its primary language alone. */
function languageShares(repo: RepoRecord): [string, number][] {
  const bytes = Object.entries(repo.languages ?? {}).filter(([, b]) => b > 0);
  const total = bytes.reduce((n, [, b]) => n + b, 0);
  if (total > 0) return bytes.map(([l, b]) => [l, b / total]);
  return repo.language ? [[repo.language, 1]] : [];
}

function ecosystemShares(repo: RepoRecord): [string, number][] {
  const ecos = ecosystemsOf(repo);
  return ecos.map((e) => [e, 1 / ecos.length]);
}

interface Shift {
  pct: number | null;
  rising: string | null;
}

/**
 * How far the commit mix moved: each window's commits are spread over their repository's shares, the two
 * distributions are compared, and half the sum of the absolute differences (the share of commits that would have to
 * move) is returned in whole percentage points. Null when either window has too few commits with a known share.
 */
export function mixShift(
  current: ReadonlyMap<string, number>,
  prior: ReadonlyMap<string, number>,
  sharesOf: (repo: string) => [string, number][],
): Shift {
  const spread = (commits: ReadonlyMap<string, number>) => {
    const mix = new Map<string, number>();
    let total = 0;
    for (const [repo, n] of commits) {
      const shares = sharesOf(repo);
      if (shares.length === 0) continue;
      total += n;
      for (const [key, share] of shares) mix.set(key, (mix.get(key) ?? 0) + n * share);
    }
    return { mix, total };
  };
  const cur = spread(current);
  const pri = spread(prior);
  if (cur.total < FRAMEWORK_MIGRATION_MIN_COMMITS || pri.total < FRAMEWORK_MIGRATION_MIN_COMMITS) {
    return { pct: null, rising: null };
  }
  let distance = 0;
  let rising: string | null = null;
  let risingBy = 0;
  for (const key of [...new Set([...cur.mix.keys(), ...pri.mix.keys()])].sort()) {
    const diff = (cur.mix.get(key) ?? 0) / cur.total - (pri.mix.get(key) ?? 0) / pri.total;
    distance += Math.abs(diff);
    if (diff > risingBy) [rising, risingBy] = [key, diff];
  }
  return { pct: Math.round((distance / 2) * 100), rising };
}

function dayRange(date: string, from: string, to: string): boolean {
  return date >= from && date < to;
}

/** Evidence lists are capped so a record stays small; the counts beside them are whole. */
export const EVIDENCE_LIST_MAX = 20;
/** The repositories carrying a window's work that the evidence names, most commits first. */
const ACTIVE_REPOS_MAX = 10;

/** A key that is a public GitHub login (not a hash of an unlinked address, not an agent or a statistics row). */
function publicLogin(key: string): string | null {
  return /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(key) ? key : null;
}

interface PeopleEvidence {
  newContributors: number;
  newRegularContributors: number;
  returningContributors: number;
  /** Evidence-v6: of the new people, those committing from outside the organisation's own addresses; undefined: not known. */
  outsideContributors: number | undefined;
  people: ContributorEvidence[];
}

/**
 * Evidence-v6: the organisation's own addresses — each domain (never a public mail provider's) that at least
 * TEAM_DOMAIN_MIN_MEMBERS of its members committed from in the collected days, a member being someone with a commit in
 * the look-back year before them. Undefined when the activity holds no address kinds (collected before).
 */
function teamDomains(
  activity: FilteredActivity,
  lastSeen: ReadonlyMap<string, string | null>,
): Set<string> | undefined {
  if (!activity.addresses) return undefined;
  const members = new Map<string, number>();
  for (const [key, kinds] of Object.entries(activity.addresses)) {
    if ((lastSeen.get(key.toLowerCase()) ?? null) === null) continue;
    for (const kind of kinds) if (kind.startsWith('domain:')) members.set(kind, (members.get(kind) ?? 0) + 1);
  }
  return new Set([...members].filter(([, n]) => n >= TEAM_DOMAIN_MIN_MEMBERS).map(([kind]) => kind));
}

/**
 * Where a new person's addresses place them (evidence-v6): `organisation` when one is the organisation's own domain,
 * `outside` when the organisation has one and theirs are all elsewhere (a personal address, another company's),
 * null when nothing is known (no address kinds, no team domain, or only GitHub's no-reply address, which hides it).
 */
function addressOf(
  kinds: readonly string[] | undefined,
  team: ReadonlySet<string> | undefined,
): 'organisation' | 'outside' | null {
  if (!team || team.size === 0 || !kinds) return null;
  if (kinds.some((k) => team.has(k))) return 'organisation';
  return kinds.some((k) => k !== 'noreply') ? 'outside' : null;
}

/**
 * Whether a person joined in the join window (evidence-v5), from the look-back's question before it and the collected
 * days: undefined when the look-back did not ask (evidence-v4 activity), when it has no answer for them, or when nobody
 * in the organisation committed before the join window (a young organisation: the two-window rule and its founders).
 */
function joinedLately(
  activity: FilteredActivity,
): { joined: (key: string) => boolean | undefined; before: (key: string) => string | null } | undefined {
  const lookback = activity.lookback;
  if (!lookback?.seenBeforeJoin || !lookback.joinSince) return undefined;
  const joinSince = lookback.joinSince;
  const before = new Map<string, string | null>();
  for (const [key, day] of Object.entries(lookback.seenBeforeJoin)) before.set(key.toLowerCase(), day);
  for (const [key, day] of Object.entries(activity.earlierLastSeen ?? {})) {
    if (day < joinSince && before.has(key) && (before.get(key) ?? '') < day) before.set(key, day);
  }
  if (![...before.values()].some((day) => day !== null)) return undefined;
  return {
    joined: (key) => (before.has(key) ? before.get(key) === null : undefined),
    before: (key) => before.get(key) ?? null,
  };
}

/**
 * Who is new in the current window (version 3). When the look-back asked who joined lately (evidence-v5): people
 * whose first commit in the organisation came in the NEW_CONTRIBUTOR_JOIN_DAYS ending at the period's end, with no
 * commit in the NEW_CONTRIBUTOR_LOOKBACK_DAYS before them: an engineer two months in, now committing on several days,
 * is new. Before (evidence-v4), and in an organisation with no commit by anyone before the join window: people who
 * first committed in the last two windows (the current or the prior one), with no commit in the look-back before that
 * nor earlier in the collected days. People absent from the prior window with a commit in the look-back, and not new,
 * are returning. An author the look-back has no answer for is neither (unknown is not new), and in an organisation
 * with no commit by anyone before the two windows the people of the prior window are its founders, not new (those
 * arriving after them are).
 */
export function peopleEvidence(activity: FilteredActivity, windowEnd: string, authorsPrior: ReadonlySet<string>) {
  const currentStart = addDays(windowEnd, -WINDOW_DAYS);
  const priorStart = addDays(windowEnd, -LOOKBACK_DAYS);
  const lookbackStart = addDays(currentStart, -NEW_CONTRIBUTOR_LOOKBACK_DAYS);
  const lastSeen = new Map<string, string | null>();
  for (const [key, day] of Object.entries(activity.lookback?.lastSeen ?? {})) lastSeen.set(key.toLowerCase(), day);
  for (const [key, day] of Object.entries(activity.earlierLastSeen ?? {})) {
    const known = lastSeen.get(key) ?? null;
    if (known === null || known < day) lastSeen.set(key, day);
  }
  const current = new Map<string, { key: string; commits: number; days: Set<string> }>();
  for (const c of activity.commits) {
    if (c.date < currentStart) continue;
    const k = c.author.toLowerCase();
    const row = current.get(k) ?? { key: c.author, commits: 0, days: new Set<string>() };
    row.commits += c.commits;
    row.days.add(c.date);
    current.set(k, row);
  }
  const team = teamDomains(activity, lastSeen);
  const addresses = new Map(Object.entries(activity.addresses ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const out: PeopleEvidence = {
    newContributors: 0,
    newRegularContributors: 0,
    returningContributors: 0,
    outsideContributors: team ? 0 : undefined,
    people: [],
  };
  // An organisation with no commit by anyone before the two windows began in the prior one: its people then founded it.
  const hasHistory = [...lastSeen.values()].some((day) => day !== null);
  const join = joinedLately(activity);
  for (const [k, row] of current) {
    if (!lastSeen.has(k)) continue;
    const seen = lastSeen.get(k) ?? null;
    const joined = join?.joined(k);
    let returning: boolean;
    let lastSeenBefore = seen;
    if (joined) returning = false;
    else if (joined === false) {
      // Here before the join window: a member, or back after a pause when absent from the prior window.
      if (authorsPrior.has(k)) continue;
      returning = true;
      lastSeenBefore = seen ?? join!.before(k);
    } else {
      // In the prior window too: new only when it was their first (nothing in the year before it), in a team before them.
      if (
        authorsPrior.has(k) &&
        (!hasHistory || (seen !== null && seen >= addDays(priorStart, -NEW_CONTRIBUTOR_LOOKBACK_DAYS)))
      )
        continue;
      returning = !authorsPrior.has(k) && seen !== null && seen >= lookbackStart && seen < currentStart;
    }
    const regular = row.commits >= NEW_REGULAR_MIN_COMMITS && row.days.size >= NEW_REGULAR_MIN_DAYS;
    const address = returning ? null : addressOf(addresses.get(k), team);
    if (returning) out.returningContributors++;
    else {
      out.newContributors++;
      // Someone new committing from outside the organisation's addresses is outside help (a community pull request),
      // counted and shown apart, not a hire.
      if (address === 'outside') out.outsideContributors!++;
      else if (regular) out.newRegularContributors++;
    }
    out.people.push({
      login: publicLogin(row.key),
      kind: returning ? 'returning' : 'new',
      regular: !returning && regular,
      firstCommit: [...row.days].sort()[0]!,
      commits: row.commits,
      activeDays: row.days.size,
      lastSeenBefore: returning ? lastSeenBefore : null,
      ...(team ? { address } : {}),
    });
  }
  out.people.sort(
    (a, b) =>
      (a.kind === b.kind ? 0 : a.kind === 'new' ? -1 : 1) ||
      Number(b.regular) - Number(a.regular) ||
      b.commits - a.commits ||
      (a.login ?? '~').localeCompare(b.login ?? '~'),
  );
  out.people = out.people.slice(0, EVIDENCE_LIST_MAX);
  return out;
}

function pathFields(activity: FilteredActivity, windowEnd: string): Partial<EvidenceMetrics> {
  const p = pathEvidence(activity, windowEnd);
  if (!p.known) return {};
  return {
    infraFilesCurrent: p.infraFilesCurrent,
    infraFilesPrior: p.infraFilesPrior,
    infraChurnCurrent: p.infraChurnCurrent,
    churnCurrent: p.churnCurrent,
    infraPaths: p.infraPaths,
    languageMove: p.moved,
    frameworkSwaps: p.swaps,
  };
}

/** The deploy fields of the evidence (the baseline's only for version 3 activity). */
type DeployMetrics = Pick<
  EvidenceMetrics,
  | 'deployDaysCurrent'
  | 'deployDaysPrior'
  | 'releasesCurrent'
  | 'tagsCurrent'
  | 'deploymentsCurrent'
  | 'deployIncompleteRepos'
  | 'deployDaysBaseline'
  | 'deployBaselineWindows'
  | 'deployBaselinePaused'
  | 'prereleasesCurrent'
  | 'deployNewRepos'
>;

/**
 * Deploy days: one per repository and UTC day with a release, a tag (not one a release names) or a deployment;
 * version 0.0.0 is a package's placeholder and a pre-release a version on its way, neither a release (pre-releases
 * are counted apart). The usual fortnight is the mean of the windows before the current one, as far back as the
 * repository's events were read (the prior window alone for older activity).
 */
function deployEvidence(
  activity: FilteredActivity,
  windowEnd: string,
): { metrics: DeployMetrics; events: DeployEventEvidence[] } {
  const currentStart = addDays(windowEnd, -WINDOW_DAYS);
  const priorStart = addDays(windowEnd, -LOOKBACK_DAYS);
  let deployDaysCurrent = 0;
  let deployDaysPrior = 0;
  let baselineDays = 0;
  let baselineWindows = 0;
  let skippedPrior = false;
  let prereleasesCurrent = 0;
  let releasesCurrent = 0;
  let tagsCurrent = 0;
  let deploymentsCurrent = 0;
  const deployIncompleteRepos: string[] = [];
  const deployNewRepos: { repo: string; since: string }[] = [];
  const deployEvents: DeployEventEvidence[] = [];
  const rhythmSince = addDays(currentStart, -DEPLOY_RHYTHM_MIN_DAYS);
  // A prior window without a single commit by a person is a pause (holidays), not part of the usual rhythm.
  const paused = !activity.commits.some((c) => dayRange(c.date, priorStart, currentStart));
  for (const repo of activity.repos) {
    const knownFrom = repo.eventsFrom ?? repo.eventsSince ?? priorStart;
    const windows = Math.min(
      DEPLOY_BASELINE_WINDOWS,
      Math.floor((Date.parse(currentStart) - Date.parse(knownFrom)) / (WINDOW_DAYS * DAY_MS)),
    );
    if (windows < 1) {
      deployIncompleteRepos.push(repo.name);
      continue;
    }
    const skipPrior = paused && windows > 1;
    if (skipPrior) skippedPrior = true;
    const notRelease = (name: string) => PLACEHOLDER_VERSION.test(name) || PRERELEASE_VERSION.test(name);
    const released = new Set((repo.releases ?? []).map((r) => r.tag));
    const prereleases = new Set<string>();
    for (const e of [...(repo.releases ?? []).map((r) => ({ date: r.date, name: r.tag })), ...(repo.tags ?? [])]) {
      if (PRERELEASE_VERSION.test(e.name) && dayRange(e.date, currentStart, windowEnd)) prereleases.add(e.name);
    }
    prereleasesCurrent += prereleases.size;
    const releases = (repo.releases ?? []).filter((r) => !notRelease(r.tag));
    const tags = (repo.tags ?? []).filter((t) => !released.has(t.name) && !notRelease(t.name));
    const current: DeployEventEvidence[] = [];
    const days = new Set<string>();
    for (const r of releases) {
      days.add(r.date);
      if (dayRange(r.date, currentStart, windowEnd))
        current.push({ repo: repo.name, kind: 'release', name: r.tag, date: r.date });
    }
    for (const t of tags) {
      days.add(t.date);
      if (dayRange(t.date, currentStart, windowEnd))
        current.push({ repo: repo.name, kind: 'tag', name: t.name, date: t.date });
    }
    for (const d of repo.deployments ?? []) {
      days.add(d.date);
      if (dayRange(d.date, currentStart, windowEnd)) {
        current.push({ repo: repo.name, kind: 'deployment', name: d.environment ?? 'default', date: d.date });
      }
    }
    if (repo.firstEventDay && repo.firstEventDay > rhythmSince) {
      if (current.length) deployNewRepos.push({ repo: repo.name, since: repo.firstEventDay });
      continue;
    }
    deployEvents.push(...current);
    for (const e of current) {
      if (e.kind === 'release') releasesCurrent++;
      else if (e.kind === 'tag') tagsCurrent++;
      else deploymentsCurrent++;
    }
    const baselineStart = addDays(currentStart, -windows * WINDOW_DAYS);
    let before = 0;
    for (const day of days) {
      if (dayRange(day, currentStart, windowEnd)) deployDaysCurrent++;
      else if (dayRange(day, priorStart, currentStart)) {
        deployDaysPrior++;
        if (!skipPrior) before++;
      } else if (dayRange(day, baselineStart, currentStart)) before++;
    }
    const counted = skipPrior ? windows - 1 : windows;
    baselineDays += before / counted;
    baselineWindows = Math.max(baselineWindows, counted);
  }
  const metrics: DeployMetrics = {
    deployDaysCurrent,
    deployDaysPrior,
    releasesCurrent,
    tagsCurrent,
    deploymentsCurrent,
    deployIncompleteRepos: deployIncompleteRepos.sort(),
    ...(activity.version === 3
      ? {
          deployDaysBaseline: Math.round(baselineDays * 10) / 10,
          deployBaselineWindows: baselineWindows,
          ...(skippedPrior ? { deployBaselinePaused: true } : {}),
          prereleasesCurrent,
          deployNewRepos: deployNewRepos.sort((a, b) => a.repo.localeCompare(b.repo)),
        }
      : {}),
  };
  return { metrics, events: deployEvents };
}

export function evidenceMetrics(
  activity: FilteredActivity,
  windowEnd: string,
  authorsCurrent: ReadonlySet<string>,
  authorsPrior: ReadonlySet<string>,
): EvidenceMetrics {
  const currentStart = addDays(windowEnd, -WINDOW_DAYS);
  const priorStart = addDays(windowEnd, -LOOKBACK_DAYS);
  const byName = new Map(activity.repos.map((r) => [r.name, r]));

  const deploy = deployEvidence(activity, windowEnd);

  // Contributors: who arrived and who left between the windows (version 3: new means none in the look-back either).
  const people = activity.version === 3 ? peopleEvidence(activity, windowEnd, authorsPrior) : undefined;
  let newContributors = 0;
  for (const a of authorsCurrent) if (!authorsPrior.has(a)) newContributors++;
  if (people) newContributors = people.newContributors;
  let departedContributors = 0;
  for (const a of authorsPrior) if (!authorsCurrent.has(a)) departedContributors++;

  // Infrastructure: new infrastructure repositories and commits to infrastructure repositories.
  const newSince = Date.parse(`${addDays(windowEnd, -NEW_REPO_DAYS)}T00:00:00Z`);
  const end = Date.parse(`${windowEnd}T00:00:00Z`);
  const infra = new Set(activity.repos.filter(isInfrastructureRepo).map((r) => r.name));
  const newInfraRepos = activity.repos
    .filter((r) => infra.has(r.name) && Date.parse(r.createdAt) >= newSince && Date.parse(r.createdAt) < end)
    .map((r) => r.name)
    .sort();
  let infraCommitsCurrent = 0;
  let infraCommitsPrior = 0;
  const repoCommitsCurrent = new Map<string, number>();
  const repoCommitsPrior = new Map<string, number>();
  for (const c of activity.commits) {
    const current = c.date >= currentStart;
    const map = current ? repoCommitsCurrent : repoCommitsPrior;
    map.set(c.repo, (map.get(c.repo) ?? 0) + c.commits);
    if (infra.has(c.repo)) {
      if (current) infraCommitsCurrent += c.commits;
      else infraCommitsPrior += c.commits;
    }
  }

  // Framework migration: how far commits moved between languages and between dependency ecosystems.
  const none: [string, number][] = [];
  const language = mixShift(repoCommitsCurrent, repoCommitsPrior, (name) => {
    const repo = byName.get(name);
    return repo ? languageShares(repo) : none;
  });
  const ecosystem = mixShift(repoCommitsCurrent, repoCommitsPrior, (name) => {
    const repo = byName.get(name);
    return repo ? ecosystemShares(repo) : none;
  });

  return {
    ...deploy.metrics,
    newContributors,
    departedContributors,
    newInfraRepos,
    infraCommitsCurrent,
    infraCommitsPrior,
    languageShiftPct: language.pct,
    ecosystemShiftPct: ecosystem.pct,
    risingLanguage: language.rising,
    risingEcosystem: ecosystem.rising,
    ...(people
      ? {
          newRegularContributors: people.newRegularContributors,
          returningContributors: people.returningContributors,
          ...(people.outsideContributors === undefined ? {} : { outsideContributors: people.outsideContributors }),
          lookbackDays: NEW_CONTRIBUTOR_LOOKBACK_DAYS,
          ...(activity.lookback?.seenBeforeJoin ? { joinDays: NEW_CONTRIBUTOR_JOIN_DAYS } : {}),
          automationCommits: activity.automationCommitsCurrent ?? 0,
          mergeCommits: activity.mergeCommitsCurrent ?? 0,
          people: people.people,
          deployEvents: deploy.events
            .sort(
              (a, b) =>
                (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) ||
                a.repo.localeCompare(b.repo) ||
                a.kind.localeCompare(b.kind) ||
                a.name.localeCompare(b.name),
            )
            .slice(0, EVIDENCE_LIST_MAX),
          activeRepos: [...repoCommitsCurrent]
            .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
            .slice(0, ACTIVE_REPOS_MAX)
            .map(([repo, commits]) => ({ repo, commits, commitsPrior: repoCommitsPrior.get(repo) ?? 0 })),
          newRepoNames: activity.repos
            .filter((r) => Date.parse(r.createdAt) >= newSince && Date.parse(r.createdAt) < end)
            .map((r) => r.name)
            .sort()
            .slice(0, EVIDENCE_LIST_MAX),
          ...pathFields(activity, windowEnd),
        }
      : {}),
  };
}
