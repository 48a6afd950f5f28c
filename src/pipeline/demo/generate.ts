import { addDays, shiftPeriod, type PeriodRef } from '../../domain/periods.js';
import { SECTOR_SLUGS, type SectorSlug, type Stage } from '../../schemas/enums.js';
import { rank } from '../rank.js';
import { type RankedPeriod } from '../../domain/records.js';
import { LOOKBACK_DAYS } from '../../domain/rules.js';
import { scoreOrg } from '../stages.js';
import type { DailyCommits, RawOrgActivity, RepoRecord, ScoredOrg, WatchlistEntry } from '../../domain/records.js';
import { Random, hashSeed } from './random.js';
import words from './words.json' with { type: 'json' };

/**
 * The synthetic demo dataset: fictional startups with invented activity, generated deterministically from a seed and
 * pushed through the same filter → rank stages as real data. Every URL points at a reserved `.example` host and every
 * description says the company is fictional.
 */
export const DEMO_DATASET_NAME = 'Signal Service synthetic demo dataset (fictional startups, not real data)';

/**
 * The range the demo's commits per contributor per 14 days are held to (checked by the tests, reported by the
 * benchmark). An assumption about working teams, not a measurement: a full-time engineer has 10 working days in 14,
 * commits on about 55–85% of them and makes 1–4 commits on such a day (5–35 commits); part-timers and occasional
 * contributors add a handful each. So the middle 90% of startup-weeks (5th to 95th percentile) lie between `low` and
 * `high`, and no startup exceeds `ceiling` (the old generator reached 108).
 */
export const DEMO_COMMITS_PER_CONTRIBUTOR_14D = { low: 2, high: 50, ceiling: 100 } as const;

/** The word lists (names, phrases, places, file names) live in words.json, bundled with the code at build. */
interface DemoWords {
  prefixes: string[];
  middles: string[];
  suffixes: string[];
  extras: string[];
  sectorWords: Record<SectorSlug, string[]>;
  sectorPhrases: Record<SectorSlug, string[]>;
  sectorLanguages: Record<SectorSlug, string[]>;
  migrationTargets: string[];
  locations: string[];
  /** The dependency manifests a repository in each language keeps at its root (none for some languages). */
  manifests: Record<string, string[]>;
  /** Small secondary languages an application repository carries. */
  sideLanguages: string[];
  /** The file extension of each language's source files, for the files a window changes. */
  extensions: Record<string, string>;
  sourceDirs: string[];
  fileStems: string[];
  /** Infrastructure files an application repository touches now and then (CI, its image). */
  infraUpkeep: string[];
  /** Infrastructure files a buildout inside an application repository adds (`{app}`: the repository). */
  infraBuildout: string[];
  /** A migration inside a repository: its files renamed from one language's extension to another's. */
  renames: { language: string; from: string; to: string }[];
  webRename: { dir: string; from: string; to: string };
  /** A framework or build tool replaced: one configuration file removed, another added. */
  frameworkSwaps: { from: string; to: string }[];
  guestNames: string[];
}
const WORDS = words as unknown as DemoWords;

/** The organisation's long-run trend of activity. */
type Trend = 'steady' | 'accelerating' | 'declining';
const TRENDS: readonly Trend[] = ['steady', 'steady', 'steady', 'accelerating', 'accelerating', 'declining'];

/**
 * Events in an organisation's story, each on its own day, whose evidence the classify stage should find for a few
 * weeks: a hiring round, an infrastructure buildout, a framework migration, a release burst. An organisation has
 * none, one or several over the timeline.
 */
type EventKind = 'hiring' | 'buildout' | 'migration' | 'release-burst';
const EVENT_KINDS: readonly EventKind[] = ['hiring', 'buildout', 'migration', 'release-burst'];
/** Expected events of each kind per organisation per year. */
const EVENTS_PER_YEAR = 1.2;

/** How a repository ships: not at all, releases on a cadence, loose tags, or continuous deployment. */
type ShipMode = 'none' | 'cadence' | 'tags' | 'deploys';

interface OrgPlan {
  entry: WatchlistEntry;
  location: string;
  baseTeam: number;
  trendPerWeek: number;
  /** The day each event of the story happens (absent: no such event). */
  events: Partial<Record<EventKind, number>>;
}

export interface DemoOptions {
  seed: string;
  /** Number of startups, spread evenly over the 15 sectors. */
  startups: number;
  /** Number of consecutive weekly periods, ending with `endPeriod`. */
  periods: number;
  endPeriod: PeriodRef;
}

export interface DemoPeriod {
  period: PeriodRef;
  ranked: RankedPeriod;
}

export interface DemoDataset {
  entries: WatchlistEntry[];
  periods: DemoPeriod[];
}

function makeNames(random: Random, count: number): string[] {
  const used = new Set<string>();
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const sector = SECTOR_SLUGS[i % SECTOR_SLUGS.length]!;
    let name: string;
    let tries = 0;
    do {
      const extra = tries > 4 || count > 2000 ? random.pick(WORDS.extras) : '';
      name = `${random.pick(WORDS.prefixes)}${random.pick(WORDS.middles)}${random.pick(WORDS.suffixes)}${extra} ${random.pick(WORDS.sectorWords[sector])}`;
      if (++tries > 50) name = `${name} ${i}`;
    } while (used.has(name.toLowerCase()));
    used.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

function toLogin(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function stageForTeam(team: number): Stage {
  return team <= 3 ? 'Pre-seed' : team <= 9 ? 'Seed' : team <= 35 ? 'Series A/B' : 'Growth';
}

function planOrgs(options: DemoOptions, timelineDays: number): OrgPlan[] {
  const random = new Random(`${options.seed}:plan`);
  const names = makeNames(random, options.startups);
  return names.map((name, i) => {
    const sector = SECTOR_SLUGS[i % SECTOR_SLUGS.length]!;
    const login = toLogin(name);
    const trend = random.pick(TRENDS);
    const baseTeam = Math.max(1, Math.min(80, Math.round(random.logNormal(6, 0.8))));
    const entry: WatchlistEntry = {
      login,
      displayName: name,
      sector,
      // The watchlist knows the stage of about half the companies; the rest are estimated by the classify stage.
      stage: random.chance(0.5) ? stageForTeam(baseTeam) : undefined,
      description: `Fictional demo company building ${random.pick(WORDS.sectorPhrases[sector])}. Synthetic data, not a real startup.`,
      website: `https://${login}.example/`,
      linkedin: `https://linkedin.example/company/${login}`,
      github: `https://github.example/${login}`,
    };
    return {
      entry,
      location: random.pick(WORDS.locations),
      baseTeam,
      trendPerWeek:
        trend === 'accelerating'
          ? 0.01 + random.next() * 0.03
          : trend === 'declining'
            ? -(0.01 + random.next() * 0.03)
            : 0,
      events: Object.fromEntries(
        EVENT_KINDS.filter(() => random.chance(Math.min(0.95, (EVENTS_PER_YEAR * timelineDays) / 365))).map((kind) => [
          kind,
          random.int(0, timelineDays - 1),
        ]),
      ),
    };
  });
}

/** The days of the demo's timeline, computed once for every organisation. */
interface Timeline {
  dates: string[];
  weekend: boolean[];
  monday: boolean[];
}

function timelineOf(firstDay: string, days: number): Timeline {
  const dates = Array.from({ length: days }, (_, d) => addDays(firstDay, d));
  const weekdays = dates.map((date) => new Date(`${date}T00:00:00Z`).getUTCDay());
  return { dates, weekend: weekdays.map((w) => w === 0 || w === 6), monday: weekdays.map((w) => w === 1) };
}

/** One person's part in the organisation: when they commit, how often, and where. */
interface Member {
  login: string;
  joinDay: number;
  leaveDay: number;
  /** Chance of committing on a working day (a tenth of it at weekends). */
  dayChance: number;
  /** Mean commits on a day they commit (at least 1). */
  perDay: number;
  /** Where most of their commits go (an index into the organisation's repositories). */
  home: number;
}

/** A repository as the generator plays it: what it is, how it ships, and how much of the work it draws. */
interface DemoRepo {
  record: RepoRecord;
  created: number;
  ship: ShipMode;
  /** Release cadence in days (cadence mode). */
  cadence: number;
  phase: number;
  /** Share of the team's commits, before the org's story moves it. */
  weight: number;
  infra: boolean;
}

/**
 * Invented activity for one organisation from `firstDay` for `days` days, shaped like a real team's:
 * - people join (a few a year, several at once in a hiring round) and leave; about two thirds work full time
 *   (commit on 55–85% of working days), the rest part time or occasionally (2–25% of days);
 * - a full-time engineer makes 1–4 commits on a day they commit, so 5–35 commits in 14 days; part-timers a handful;
 * - repositories ship in their own way: releases on a cadence of one to four weeks, loose tags, continuous
 *   deployments, or nothing; a release burst multiplies a repository's releases for two to three weeks;
 * - a buildout opens infrastructure repositories (Terraform, Helm, Docker) and draws commits to them for weeks; a
 *   migration opens a repository in a new language and moves the team's commits to it over six weeks.
 * Bots and a fork are in the raw activity too; the filter stage removes them, as it does with real data.
 */
function generateActivity(plan: OrgPlan, seed: string, timeline: Timeline): RawOrgActivity {
  const { dates, weekend } = timeline;
  const days = dates.length;
  const random = new Random(`${seed}:org:${plan.entry.login}`);
  const languages = WORDS.sectorLanguages[plan.entry.sector];
  const repos: DemoRepo[] = [];
  const stamp = (day: number) =>
    `${day >= 0 && day < days ? dates[day] : addDays(dates[0]!, day)}T${String(random.int(0, 23)).padStart(2, '0')}:00:00Z`;
  const addRepo = (
    name: string,
    day: number,
    language: string,
    options: { infra?: boolean; topics?: string[]; markers?: string[]; weight?: number; fork?: boolean } = {},
  ): DemoRepo => {
    const side = random.pick(WORDS.sideLanguages);
    const langs: Record<string, number> = { [language]: random.int(40_000, 900_000) };
    if (!options.infra) langs[side] = random.int(500, 20_000);
    const manifests = WORDS.manifests[language];
    const markers = options.markers ?? (manifests ? [random.pick(manifests)] : []);
    const ship: ShipMode = options.infra
      ? random.pick(['none', 'tags'] as const)
      : random.pick(['none', 'none', 'cadence', 'cadence', 'tags', 'deploys'] as const);
    const repo: DemoRepo = {
      record: {
        name,
        fork: Boolean(options.fork),
        createdAt: stamp(day),
        language,
        languages: langs,
        topics: options.topics ?? [],
        markers: [...markers].sort(),
        releases: [],
        tags: [],
        deployments: [],
      },
      created: day,
      ship,
      cadence: random.pick([7, 14, 14, 21, 28]),
      phase: random.int(0, 27),
      weight: options.weight ?? 0.3 + random.next(),
      infra: Boolean(options.infra),
    };
    repos.push(repo);
    return repo;
  };

  const established = random.int(2, 8);
  for (let r = 0; r < established; r++) {
    addRepo(`core-${r}`, -random.int(60, 1500), random.pick(languages), { weight: r === 0 ? 3 : undefined });
  }
  // About half the organisations already keep their infrastructure as code.
  if (random.chance(0.5)) {
    addRepo('infra', -random.int(60, 900), 'HCL', {
      infra: true,
      topics: ['terraform'],
      markers: ['main.tf'],
      weight: 0.15,
    });
  }
  const fork = addRepo('upstream-fork', -random.int(60, 900), random.pick(languages), { fork: true, weight: 0 });
  for (let day = 0; day < days; day++) {
    if (random.chance(0.008)) addRepo(`service-${day}`, day, random.pick(languages), { weight: 0.3 });
  }

  // The story's own repositories.
  const { events } = plan;
  const buildout: DemoRepo[] = [];
  let migrationRepo: DemoRepo | undefined;
  if (events.buildout !== undefined) {
    const event = events.buildout;
    const kinds = [
      {
        name: 'terraform-modules',
        language: 'HCL',
        topics: ['terraform', 'infrastructure-as-code'],
        markers: ['main.tf'],
      },
      { name: 'helm-charts', language: 'Go Template', topics: ['helm', 'kubernetes'], markers: ['Chart.yaml'] },
      { name: 'platform-images', language: 'Dockerfile', topics: ['docker', 'devops'], markers: [] },
      { name: 'k8s-manifests', language: 'Jsonnet', topics: ['kubernetes', 'gitops'], markers: ['kustomization.yaml'] },
    ];
    const count = random.int(2, 4);
    for (let r = 0; r < count; r++) {
      const kind = kinds[r]!;
      buildout.push(
        addRepo(kind.name, event + random.int(0, 10), kind.language, {
          infra: true,
          topics: kind.topics,
          markers: kind.markers,
          weight: 0,
        }),
      );
    }
  }
  if (events.migration !== undefined) {
    const event = events.migration;
    const target = random.pick(WORDS.migrationTargets.filter((l) => !languages.includes(l)));
    migrationRepo = addRepo(`${target.toLowerCase()}-rewrite`, event, target, { weight: 0 });
  }

  // The team: founding members, steady hiring and attrition, and a hiring round on a hiring event.
  const members: Member[] = [];
  const addMember = (joinDay: number) => {
    const kind = random.next();
    const fullTime = kind < 0.65;
    const partTime = !fullTime && kind < 0.9;
    members.push({
      login: `${plan.entry.login}-dev${members.length}`,
      joinDay,
      leaveDay: Infinity,
      dayChance: fullTime
        ? 0.55 + random.next() * 0.3
        : partTime
          ? 0.1 + random.next() * 0.15
          : 0.02 + random.next() * 0.05,
      perDay: fullTime ? 1 + random.next() * 2.5 : 1 + random.next(),
      home: -1,
    });
  };
  for (let i = 0; i < plan.baseTeam; i++) addMember(-random.int(30, 900));
  const weeklyJoin = Math.min(0.5, 0.012 * plan.baseTeam + 0.02);
  for (let week = 0; week * 7 < days; week++) {
    if (random.chance(weeklyJoin)) addMember(week * 7 + random.int(0, 6));
  }
  if (events.hiring !== undefined) {
    const event = events.hiring;
    const hires = Math.max(2, Math.round(plan.baseTeam * (0.35 + random.next() * 0.4)));
    for (let i = 0; i < hires; i++) addMember(event + random.int(0, 12));
  }
  for (const m of members) {
    // About a fifth leave in a year.
    for (let day = Math.max(m.joinDay, 0); day < days; day += 7) {
      if (random.chance(0.004)) {
        m.leaveDay = day + random.int(0, 6);
        break;
      }
    }
  }

  // Releases, tags and deployments, per repository and day.
  for (const repo of repos) {
    if (repo.record.fork) continue;
    const burstDay = events['release-burst'];
    const burst = (day: number) => burstDay !== undefined && day >= burstDay && day < burstDay + 18;
    let version = random.int(1, 40);
    for (let day = Math.max(repo.created, 0); day < days; day++) {
      const date = dates[day]!;
      const working = !weekend[day];
      const main = repo === repos[0];
      const bursting = burst(day) && (main || repo.weight > 0.6);
      let release = false;
      if (repo.ship === 'cadence') release = (day + repo.phase) % repo.cadence === 0 && random.chance(0.85);
      if (repo.ship === 'tags') release = working && random.chance(0.06);
      if (bursting) release ||= working && random.chance(0.55);
      if (release) {
        const tag = `v0.${version++}.0`;
        if (repo.ship === 'tags' && !bursting) repo.record.tags!.push({ date, name: tag });
        else {
          repo.record.releases!.push({ date, tag });
          repo.record.tags!.push({ date, name: tag });
        }
      }
      if (repo.ship === 'deploys' && working) {
        if (random.chance(bursting ? 0.9 : 0.35)) repo.record.deployments!.push({ date, environment: 'production' });
        if (random.chance(0.3)) repo.record.deployments!.push({ date, environment: 'staging' });
      }
    }
  }

  // Commits: each member on each day, to repositories weighted by the story.
  const commits: DailyCommits[] = [];
  const share = (repo: DemoRepo, day: number): number => {
    if (repo.created > day || repo.record.fork) return 0;
    if (repo.infra && buildout.includes(repo)) {
      const since = day - events.buildout!;
      return since < 0 ? 0 : since < 35 ? 0.9 : 0.25;
    }
    if (repo === migrationRepo) {
      const since = day - events.migration!;
      return Math.min(6, 0.2 + (since / 42) * 6);
    }
    return repo.weight;
  };
  const weighted = (weights: number[], total: number): number => {
    let pick = random.next() * total;
    let index = 0;
    while (index < weights.length - 1 && pick >= weights[index]!) pick -= weights[index++]!;
    return index;
  };
  for (let day = 0; day < days; day++) {
    const date = dates[day]!;
    const intensity = Math.exp(plan.trendPerWeek * (day / 7));
    const live = repos.map((r) => share(r, day));
    const total = live.reduce((n, w) => n + w, 0);
    for (const m of members) {
      if (day < m.joinDay || day >= m.leaveDay) continue;
      // People keep to a home repository, and now and then move to another (where the work is going).
      if (m.home < 0 || live[m.home]! === 0 || (timeline.monday[day] && random.chance(0.08)))
        m.home = weighted(live, total);
      if (!random.chance(Math.min(0.95, m.dayChance * (weekend[day] ? 0.1 : 1) * intensity))) continue;
      let count = 1 + random.poisson((m.perDay - 1) * Math.max(intensity, 0.5));
      // On a busy day the work goes to one or two repositories.
      const parts = count > 2 && random.chance(0.4) ? 2 : 1;
      for (let p = 0; p < parts; p++) {
        const n = p === parts - 1 ? count : Math.ceil(count / 2);
        count -= n;
        const index = p === 0 && random.chance(0.75) && live[m.home]! > 0 ? m.home : weighted(live, total);
        commits.push({ date, repo: repos[index]!.record.name, author: m.login, commits: n });
      }
    }
    // Automation and forks: present in raw activity, removed by the filter stage.
    const main = repos[0]!.record.name;
    if (timeline.monday[day]) commits.push({ date, repo: main, author: 'dependabot[bot]', commits: random.int(1, 6) });
    if (random.chance(0.3))
      commits.push({ date, repo: main, author: 'github-actions[bot]', commits: random.int(1, 3) });
    if (random.chance(0.2))
      commits.push({ date, repo: fork.record.name, author: members[0]!.login, commits: random.int(1, 8) });
  }
  return {
    profile: {
      login: plan.entry.login,
      name: plan.entry.displayName,
      description: plan.entry.description ?? null,
      location: plan.location,
      blog: plan.entry.website ?? null,
    },
    repos: repos.map((r) => r.record),
    commits,
    version: 2,
  };
}

/** Index of the first commit row on or after each day of the timeline (rows are generated in day order). */
function commitIndexByDay(raw: RawOrgActivity, timeline: Timeline): number[] {
  const index: number[] = [];
  let row = 0;
  for (let day = 0; day <= timeline.dates.length; day++) {
    const date = timeline.dates[day];
    while (row < raw.commits.length && (date === undefined || raw.commits[row]!.date < date)) row++;
    index.push(row);
  }
  return index;
}

/**
 * What a collector run at the end of `period` would have stored: repositories that existed then, and the commits,
 * releases, tags and deployments of the 35 days before (the pipeline's collect window).
 */
function collectedFor(
  raw: RawOrgActivity,
  timeline: Timeline,
  firstCommitOf: number[],
  period: PeriodRef,
): RawOrgActivity {
  const end = addDays(period.endsOn, 1);
  const from = addDays(end, -(LOOKBACK_DAYS + 7));
  const dayOf = (date: string) =>
    Math.max(
      0,
      Math.min(timeline.dates.length, Math.round((Date.parse(date) - Date.parse(timeline.dates[0]!)) / 86_400_000)),
    );
  const inWindow = (e: { date: string }) => e.date >= from && e.date < end;
  const endInstant = `${end}T00:00:00Z`;
  return {
    profile: raw.profile,
    repos: raw.repos
      .filter((r) => r.createdAt < endInstant)
      .map((r) => ({
        ...r,
        releases: r.releases?.filter(inWindow),
        tags: r.tags?.filter(inWindow),
        deployments: r.deployments?.filter(inWindow),
      })),
    commits: raw.commits.slice(firstCommitOf[dayOf(from)], firstCommitOf[dayOf(end)]),
    version: raw.version,
  };
}

/**
 * Builds the demo dataset. Deterministic: the same options give the same entries and periods, byte for byte.
 * Periods are computed by the real stages (filter, normalise, accelerate, classify, rank) over the invented activity.
 */
export function generateDemoDataset(options: DemoOptions): DemoDataset {
  if (options.startups < 1 || options.periods < 1) throw new RangeError('startups and periods must be at least 1');
  const firstPeriod = shiftPeriod(options.endPeriod, -(options.periods - 1));
  // Enough history before the first period for its 28-day windows and 30-day new-repository count.
  const firstDay = addDays(firstPeriod.startsOn, -35);
  const periods = Array.from({ length: options.periods }, (_, i) => shiftPeriod(firstPeriod, i));
  const days =
    (Date.parse(`${options.endPeriod.endsOn}T00:00:00Z`) - Date.parse(`${firstDay}T00:00:00Z`)) / 86_400_000 + 1;
  const plans = planOrgs(options, days);
  // One organisation's raw activity at a time, so 100,000 startups fit in memory.
  const scored: ScoredOrg[][] = periods.map(() => []);
  const timeline = timelineOf(firstDay, days);
  for (const plan of plans) {
    const raw = generateActivity(plan, options.seed, timeline);
    const firstCommitOf = commitIndexByDay(raw, timeline);
    periods.forEach((period, i) =>
      scored[i]!.push(scoreOrg({ entry: plan.entry, raw: collectedFor(raw, timeline, firstCommitOf, period) }, period)),
    );
  }
  return {
    entries: plans.map((p) => p.entry),
    periods: periods.map((period, i) => ({ period, ranked: rank(scored[i]!) })),
  };
}
