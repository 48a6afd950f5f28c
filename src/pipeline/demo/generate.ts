import { addDays, shiftPeriod, type PeriodRef } from '../../domain/periods.js';
import { SECTOR_SLUGS, type SectorSlug, type Stage } from '../../schemas/enums.js';
import { rank } from '../rank.js';
import { type RankedPeriod } from '../../domain/records.js';
import {
  DEPLOY_BASELINE_WINDOWS,
  LOOKBACK_DAYS,
  NEW_CONTRIBUTOR_JOIN_DAYS,
  NEW_CONTRIBUTOR_LOOKBACK_DAYS,
  WINDOW_DAYS,
} from '../../domain/rules.js';
import { AUTOMATION_IDENTITIES, AUTOMATION_KEY_PREFIX, isAutomationAuthor } from '../../domain/automation.js';
import { addressKind } from '../collect/addresses.js';
import { scoreOrg } from '../stages.js';
import type {
  DailyCommits,
  FileChange,
  RawOrgActivity,
  RepoRecord,
  ScoredOrg,
  WatchlistEntry,
} from '../../domain/records.js';
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
  /** Logins of automation and AI coding agents (each one domain/automation.ts names as automation). */
  automationLogins: string[];
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

/** The newest week of a demo dataset, generated alone. */
export interface DemoLatestWeek {
  entries: WatchlistEntry[];
  latest: DemoPeriod;
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
  /** Days away (holidays, leave, work elsewhere): [first, last + 1). They come back as returning, not new. */
  pauses: [number, number][];
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
  /** Human commits (merges apart) per day of the timeline: how much the window's changed files hold. */
  dayCommits: Float64Array;
  /** Where its ordinary source files sit, and their extension. */
  dirs: readonly string[];
  ext: string;
  /** Files a story changes on a given day (an infrastructure surge, files renamed to a new language, a framework replaced). */
  fileEvents: { day: number; change: FileChange }[];
  oidPrefix: string;
}

/** One organisation's invented activity and what the collect stage needs to read it point-in-time. */
interface DemoOrg {
  raw: RawOrgActivity;
  repos: DemoRepo[];
  /** Each author's days with a commit (ascending, day indices of the timeline). */
  authorDays: Map<string, number[]>;
  /** For people who were in the organisation before the timeline starts: their last day there (a negative index). */
  preSeen: Map<string, number>;
  /** The drive-by contributors' logins (people from outside the team). */
  guests: Set<string>;
  /** The files each repository changed in a window, by `repo index:from day` (a window is read by two periods). */
  windows: Map<string, FileChange[]>;
  key: string;
}

/** Infrastructure repositories' own files: where they sit. */
const INFRA_DIRS: Record<string, readonly string[]> = {
  HCL: ['modules/network', 'modules/database', 'envs/production'],
  'Go Template': ['charts/platform/templates'],
  Jsonnet: ['k8s/base', 'k8s/overlays/production'],
  Dockerfile: ['images'],
};

/** The automation identities of domain/automation.ts that have no login of their own (an AI agent's address). */
const AGENT_KEYS = AUTOMATION_IDENTITIES.filter((id) => !id.login).map((id) => `${AUTOMATION_KEY_PREFIX}${id.agent}`);

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
function generateActivity(plan: OrgPlan, seed: string, timeline: Timeline): DemoOrg {
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
      dayCommits: new Float64Array(days),
      dirs: INFRA_DIRS[language] ?? [random.pick(WORDS.sourceDirs), random.pick(WORDS.sourceDirs)],
      ext: WORDS.extensions[language] ?? 'txt',
      fileEvents: [],
      oidPrefix: oidPrefix(`${seed}:${plan.entry.login}/${name}`),
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
  // A buildout either opens infrastructure repositories (above) or happens inside the main repository; so does a
  // migration: a rewrite in a new repository, files renamed to another language, or a framework replaced.
  const mainRepo = repos[0]!;
  const workdays = (from: number, span: number) =>
    Array.from({ length: span }, (_, i) => from + i).filter((d) => d >= 0 && d < days && !weekend[d]);
  if (events.buildout !== undefined && random.chance(0.5)) {
    for (const repo of buildout.splice(0)) repos.splice(repos.indexOf(repo), 1);
    const spread = workdays(events.buildout, 24);
    if (spread.length) {
      for (const template of WORDS.infraBuildout) {
        const path = template.replace('{app}', mainRepo.record.name);
        const added = random.int(0, Math.min(9, spread.length - 1));
        mainRepo.fileEvents.push({
          day: spread[added]!,
          change: { path, status: 'added', additions: random.int(20, 160), deletions: 0 },
        });
        for (let k = 0, edits = random.int(1, 3); k < edits; k++) {
          const day = spread[random.int(added, spread.length - 1)]!;
          mainRepo.fileEvents.push({
            day,
            change: { path, status: 'modified', additions: random.int(5, 60), deletions: random.int(2, 30) },
          });
        }
      }
    }
  }
  if (events.migration !== undefined) {
    const event = events.migration;
    const kind = random.pick(['rewrite', 'rename', 'framework'] as const);
    if (kind === 'rewrite') {
      const target = random.pick(WORDS.migrationTargets.filter((l) => !languages.includes(l)));
      migrationRepo = addRepo(`${target.toLowerCase()}-rewrite`, event, target, { weight: 0 });
    } else if (kind === 'rename') {
      const own = WORDS.renames.find((r) => r.language === mainRepo.record.language);
      const dir = own ? mainRepo.dirs[0]! : WORDS.webRename.dir;
      const { from, to } = own ?? WORDS.webRename;
      const spread = workdays(event, 21);
      const files = random.int(30, 160);
      for (let i = 0; spread.length && i < files; i++) {
        const stem = `${dir}/${random.pick(WORDS.fileStems)}-${i}`;
        mainRepo.fileEvents.push({
          day: spread[random.int(0, spread.length - 1)]!,
          change: {
            path: `${stem}.${to}`,
            previousPath: `${stem}.${from}`,
            status: 'renamed',
            additions: random.int(0, 30),
            deletions: random.int(0, 20),
          },
        });
      }
    } else if (event < days) {
      const swap = random.pick(WORDS.frameworkSwaps);
      mainRepo.fileEvents.push(
        { day: event, change: { path: swap.from, status: 'removed', additions: 0, deletions: random.int(15, 80) } },
        { day: event, change: { path: swap.to, status: 'added', additions: random.int(10, 60), deletions: 0 } },
      );
    }
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
      pauses: [],
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
  const preSeen = new Map<string, number>();
  for (const m of members) {
    // Founding members committed in the days before the timeline; now and then anyone is away for three to seven
    // weeks (holidays, leave, a private project) and comes back.
    if (m.joinDay < 0) preSeen.set(m.login, -random.int(1, 10));
    for (let day = Math.max(m.joinDay, 0) + random.int(20, 160); day < days; day += random.int(60, 240)) {
      if (random.chance(0.5)) m.pauses.push([day, day + random.int(21, 49)]);
    }
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
  // A quiet spell for the whole team (a holiday season, an offsite) in about half the organisations.
  const quietFrom = random.chance(0.5) ? random.int(0, days - 1) : -1;
  const quietUntil = quietFrom + random.int(9, 16);
  // Drive-by contributors (a fix, a translation): one or two commits, on one or two days.
  const guests = new Map<number, { login: string; commits: number }[]>();
  const guestChance = Math.min(0.6, 0.15 + 0.01 * plan.baseTeam);
  for (let week = 0, n = 0; week * 7 < days; week++) {
    if (!random.chance(guestChance)) continue;
    const login = `${plan.entry.login}-${random.pick(WORDS.guestNames)}${n++}`;
    const day = week * 7 + random.int(0, 6);
    const second = random.chance(0.25);
    for (const [d, c] of [[day, second ? 1 : random.int(1, 2)], ...(second ? [[day + random.int(1, 5), 1]] : [])]) {
      if (d! < days) guests.set(d!, [...(guests.get(d!) ?? []), { login, commits: c! }]);
    }
  }
  // Automation beside the usual bots: AI coding agents and dependency updaters under their own identities.
  const agents = [...WORDS.automationLogins, ...AGENT_KEYS].filter(() => random.chance(0.25));
  const authorDays = new Map<string, number[]>();
  const push = (row: DailyCommits, day: number, repo?: DemoRepo) => {
    commits.push(row);
    const seen = authorDays.get(row.author);
    if (!seen) authorDays.set(row.author, [day]);
    else if (seen.at(-1) !== day) seen.push(day);
    if (repo) repo.dayCommits[day]! += row.commits - (row.merges ?? 0);
  };
  for (let day = 0; day < days; day++) {
    const date = dates[day]!;
    const quiet = day >= quietFrom && day < quietUntil;
    const intensity = Math.exp(plan.trendPerWeek * (day / 7)) * (quiet ? 0.08 : 1);
    const live = repos.map((r) => share(r, day));
    const total = live.reduce((n, w) => n + w, 0);
    for (const m of members) {
      if (day < m.joinDay || day >= m.leaveDay) continue;
      if (isAway(m.pauses, day)) continue;
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
        // Merging a pull request adds a merge commit beside the work (not counted: the work is).
        const merges = random.chance(0.15) ? 1 : 0;
        const repo = repos[index]!;
        push({ date, repo: repo.record.name, author: m.login, commits: n + merges, merges }, day, repo);
      }
    }
    for (const g of guests.get(day) ?? []) {
      const repo = repos[weighted(live, total)]!;
      push({ date, repo: repo.record.name, author: g.login, commits: g.commits }, day, repo);
    }
    // Automation and forks: present in raw activity, removed by the filter stage.
    const main = repos[0]!.record.name;
    if (timeline.monday[day]) push({ date, repo: main, author: 'dependabot[bot]', commits: random.int(1, 6) }, day);
    if (random.chance(0.3)) push({ date, repo: main, author: 'github-actions[bot]', commits: random.int(1, 3) }, day);
    for (const agent of agents) {
      if (!weekend[day] && random.chance(0.3)) {
        push({ date, repo: repos[weighted(live, total)]!.record.name, author: agent, commits: random.int(1, 5) }, day);
      }
    }
    if (random.chance(0.2))
      push({ date, repo: fork.record.name, author: members[0]!.login, commits: random.int(1, 8) }, day);
  }
  const raw: RawOrgActivity = {
    profile: {
      login: plan.entry.login,
      name: plan.entry.displayName,
      description: plan.entry.description ?? null,
      location: plan.location,
      blog: plan.entry.website ?? null,
    },
    repos: repos.map((r) => r.record),
    commits,
    version: 3,
  };
  const guestLogins = new Set([...guests.values()].flat().map((g) => g.login));
  return {
    raw,
    repos,
    authorDays,
    preSeen,
    guests: guestLogins,
    windows: new Map(),
    key: `${seed}:files:${plan.entry.login}`,
  };
}

/**
 * The files a repository's default branch changed from `from` to `until` (day indices), as a comparison of its two
 * tips lists them: its ordinary source files, as many as the window's commits touch (at most 12, their lines
 * scaled to the work), now and then a CI or image file, and the files the organisation's story changed on those days.
 */
function windowFiles(org: DemoOrg, index: number, from: number, until: number): FileChange[] {
  const key = `${index}:${from}`;
  const known = org.windows.get(key);
  if (known) return known;
  const repo = org.repos[index]!;
  let commits = 0;
  for (let d = Math.max(from, 0); d < Math.min(until, repo.dayCommits.length); d++) commits += repo.dayCommits[d]!;
  const random = new Random(`${org.key}:${repo.record.name}:${from}`);
  const files = new Map<string, FileChange>();
  if (commits > 0) {
    const count = Math.min(12, Math.ceil(commits / 4));
    const lines = (commits * (repo.infra ? 6 : 25)) / count;
    for (let i = 0; i < count; i++) {
      const path = `${random.pick(repo.dirs)}/${random.pick(WORDS.fileStems)}${random.int(0, 9)}.${repo.ext}`;
      const additions = Math.round(lines * (0.3 + random.next()));
      files.set(path, {
        path,
        status: random.chance(0.08) ? 'added' : 'modified',
        additions,
        deletions: Math.round(additions * random.next() * 0.6),
      });
    }
    if (!repo.infra && random.chance(0.25)) {
      const path = random.pick(WORDS.infraUpkeep);
      files.set(path, { path, status: 'modified', additions: random.int(1, 4), deletions: random.int(1, 4) });
    }
  }
  for (const { day, change } of repo.fileEvents) {
    if (day < from || day >= until) continue;
    const before = files.get(change.path);
    // A file added and edited inside the same window is one added file, with all its lines.
    files.set(
      change.path,
      before?.status === 'added'
        ? { ...before, additions: before.additions + change.additions, deletions: before.deletions }
        : change,
    );
  }
  const list = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  org.windows.set(key, list);
  return list;
}

/** Whether `day` falls in one of the pauses (`[from, until)` day ranges). */
function isAway(pauses: readonly (readonly [number, number])[], day: number): boolean {
  for (let i = 0; i < pauses.length; i++) if (day >= pauses[i]![0] && day < pauses[i]![1]) return true;
  return false;
}

/** The first 32 hex digits of a repository's tip ids (the tip at a day adds the day's 8). */
function oidPrefix(text: string): string {
  let h = hashSeed(text);
  let out = '';
  for (let i = 0; i < 4; i++) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
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

/** The last entry of an ascending list below `limit`, or undefined. */
function lastBelow(days: readonly number[], limit: number): number | undefined {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? days[lo - 1] : undefined;
}

/**
 * What a collector run at the end of `period` would have stored (version 3): repositories that existed then with
 * their default branch's tip then and the files each window changed, the commits of the 35 days before (the
 * pipeline's collect window), the releases, tags and deployments from the deploy baseline's start twelve weeks
 * before the current window, and each author's last earlier day in the organisation.
 */
function collectedFor(org: DemoOrg, timeline: Timeline, firstCommitOf: number[], period: PeriodRef): RawOrgActivity {
  const { raw } = org;
  const end = addDays(period.endsOn, 1);
  const from = addDays(end, -(LOOKBACK_DAYS + 7));
  const dayOf = (date: string) =>
    Math.max(
      0,
      Math.min(timeline.dates.length, Math.round((Date.parse(date) - Date.parse(timeline.dates[0]!)) / 86_400_000)),
    );
  // Events from the deploy baseline's start, as the collector reads them, or from the demo's first day when it began
  // later (nothing happened before it, so the events are whole from there).
  const baselineStart = addDays(end, -WINDOW_DAYS * (1 + DEPLOY_BASELINE_WINDOWS));
  const eventsSince = baselineStart > timeline.dates[0]! ? baselineStart : timeline.dates[0]!;
  const inWindow = (e: { date: string }) => e.date >= eventsSince && e.date < end;
  // The repository's first event ever, when it came after the events' start (every list is whole in the demo) in a
  // repository made during the demo (an older one's releasing began before the demo's first day).
  const firstEventField = (r: RepoRecord): { firstEventDay?: string } => {
    if (r.createdAt < `${timeline.dates[0]!}T00:00:00Z`) return {};
    const first = [...(r.releases ?? []), ...(r.tags ?? []), ...(r.deployments ?? [])]
      .map((e) => e.date)
      .filter((d) => d < end)
      .sort()[0];
    return first && first >= eventsSince ? { firstEventDay: first } : {};
  };
  const endInstant = `${end}T00:00:00Z`;
  const endDay = dayOf(end);
  const fromDay = dayOf(from);
  const bounds = [endDay - LOOKBACK_DAYS, endDay - WINDOW_DAYS, endDay];
  const boundDates = [addDays(end, -LOOKBACK_DAYS), addDays(end, -WINDOW_DAYS), end];
  const commits = raw.commits.slice(firstCommitOf[fromDay], firstCommitOf[endDay]);
  const lastSeen: Record<string, string | null> = {};
  // Who joined lately: the latest day before the join window; a member from before the timeline was there before it.
  const joinSince = addDays(end, -NEW_CONTRIBUTOR_JOIN_DAYS);
  const joinDay = endDay - NEW_CONTRIBUTOR_JOIN_DAYS;
  const seenBeforeJoin: Record<string, string | null> = {};
  const dateOf = (day: number) => (day >= 0 ? timeline.dates[day]! : addDays(timeline.dates[0]!, day));
  for (const { author } of commits) {
    if (author in lastSeen) continue;
    const days = org.authorDays.get(author) ?? [];
    const pre = org.preSeen.get(author);
    const day = lastBelow(days, fromDay) ?? pre;
    lastSeen[author] = day === undefined ? null : dateOf(day);
    const before = lastBelow(days, joinDay) ?? (pre === undefined ? undefined : Math.min(pre, joinDay - 1));
    seenBeforeJoin[author] = before === undefined ? null : dateOf(before);
  }
  return {
    profile: raw.profile,
    repos: org.repos
      .map((r, index) => ({ r, index }))
      .filter(({ r }) => r.record.createdAt < endInstant)
      .map(({ r, index }) => ({
        ...r.record,
        releases: r.record.releases?.filter(inWindow),
        tags: r.record.tags?.filter(inWindow),
        deployments: r.record.deployments?.filter(inWindow),
        eventsSince,
        ...firstEventField(r.record),
        defaultBranch: 'main',
        tip: { oid: `${r.oidPrefix}${endDay.toString(16).padStart(8, '0')}`, source: 'activity' as const },
        ...(r.record.fork
          ? {}
          : {
              changes: [0, 1].map((w) => ({
                from: boundDates[w]!,
                until: boundDates[w + 1]!,
                files: windowFiles(org, index, bounds[w]!, bounds[w + 1]!),
                truncated: false,
              })),
            }),
      })),
    commits,
    version: 3,
    lookback: {
      since: addDays(from, -(NEW_CONTRIBUTOR_LOOKBACK_DAYS + WINDOW_DAYS)),
      until: addDays(from, -1),
      lastSeen,
      joinSince,
      seenBeforeJoin,
    },
    addresses: demoAddresses(org, Object.keys(lastSeen)),
  };
}

/**
 * The kinds of address the demo's people commit from, as the collector records them (collect/addresses.ts), chosen
 * from each login's hash so the invented activity stays as it is: most of a team on the organisation's own domain
 * (a reserved .example one), the rest on GitHub's no-reply address; drive-by contributors on a public mail provider
 * or the no-reply address, as outside help is.
 */
function demoAddresses(org: DemoOrg, authors: readonly string[]): Record<string, string[]> {
  const own = addressKind(`team@${org.raw.profile.login.toLowerCase()}.example`)!;
  const out: Record<string, string[]> = {};
  for (const author of [...authors].sort()) {
    if (isAutomationAuthor(author)) continue;
    const pick = hashSeed(`address:${author}`) % 10;
    out[author.toLowerCase()] = [
      org.guests.has(author) ? (pick < 6 ? 'consumer' : 'noreply') : pick < 7 ? own : 'noreply',
    ];
  }
  return out;
}

/**
 * Builds the demo dataset. Deterministic: the same options give the same entries and periods, byte for byte.
 * Periods are computed by the real stages (filter, normalise, accelerate, classify, rank) over the invented activity.
 */
export function generateDemoDataset(options: DemoOptions): DemoDataset {
  const steps = demoDatasetSteps(options);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * `generateDemoDataset` in steps: yields after each organisation, so a serving process can build the dataset in the
 * background and answer requests between organisations.
 */
export function* demoDatasetSteps(options: DemoOptions): Generator<void, DemoDataset, void> {
  const plan = demoPlan(options);
  const scored: ScoredOrg[][] = plan.periods.map(() => []);
  for (const org of plan.orgs) {
    const activity = org.activity();
    plan.periods.forEach((period, i) => scored[i]!.push(activity.score(period)));
    yield;
  }
  return {
    entries: plan.orgs.map((o) => o.entry),
    periods: plan.periods.map((period, i) => ({ period, ranked: rank(scored[i]!) })),
  };
}

/**
 * The newest week of the dataset `generateDemoDataset(options)` makes, alone (the same entries and the same ranked
 * week, at a thirtieth of the scoring): what a first start serves while the earlier weeks are generated.
 */
export function generateDemoLatestWeek(options: DemoOptions): DemoLatestWeek {
  const plan = demoPlan(options);
  const period = plan.periods.at(-1)!;
  const scored = plan.orgs.map((org) => org.activity().score(period));
  return { entries: plan.orgs.map((o) => o.entry), latest: { period, ranked: rank(scored) } };
}

/** The weeks of a demo dataset and, per organisation, its entry and the activity it generates. */
function demoPlan(options: DemoOptions) {
  if (options.startups < 1 || options.periods < 1) throw new RangeError('startups and periods must be at least 1');
  const firstPeriod = shiftPeriod(options.endPeriod, -(options.periods - 1));
  // Enough history before the first period for its 28-day windows and 30-day new-repository count.
  const firstDay = addDays(firstPeriod.startsOn, -35);
  const periods = Array.from({ length: options.periods }, (_, i) => shiftPeriod(firstPeriod, i));
  const days =
    (Date.parse(`${options.endPeriod.endsOn}T00:00:00Z`) - Date.parse(`${firstDay}T00:00:00Z`)) / 86_400_000 + 1;
  const timeline = timelineOf(firstDay, days);
  // One organisation's raw activity at a time, so 100,000 startups fit in memory.
  const orgs = planOrgs(options, days).map((plan) => ({
    entry: plan.entry,
    activity: () => {
      const org = generateActivity(plan, options.seed, timeline);
      const firstCommitOf = commitIndexByDay(org.raw, timeline);
      return {
        score: (period: PeriodRef) =>
          scoreOrg({ entry: plan.entry, raw: collectedFor(org, timeline, firstCommitOf, period) }, period),
      };
    },
  }));
  return { periods, orgs };
}
