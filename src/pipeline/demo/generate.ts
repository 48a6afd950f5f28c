import { addDays, shiftPeriod, type PeriodRef } from '../../core/periods.js';
import { SECTOR_SLUGS, type SectorSlug, type Stage } from '../../schemas/enums.js';
import { rank, type RankedPeriod } from '../rank.js';
import { scoreOrg } from '../stages.js';
import type { DailyCommits, RawOrgActivity, RepoRecord, ScoredOrg, WatchlistEntry } from '../types.js';
import { Random } from './random.js';

/**
 * The synthetic demo dataset: fictional startups with invented activity, generated deterministically from a seed and
 * pushed through the same filter → rank stages as real data. Every URL points at a reserved `.example` host and every
 * description says the company is fictional.
 */
export const DEMO_DATASET_NAME = 'Signal Service synthetic demo dataset (fictional startups, not real data)';

const PREFIX = [
  'Zor',
  'Quil',
  'Vent',
  'Nim',
  'Lum',
  'Brix',
  'Cael',
  'Dax',
  'Eon',
  'Fyn',
  'Gal',
  'Hux',
  'Iri',
  'Jov',
  'Kest',
  'Lyr',
  'Myr',
  'Nov',
  'Oru',
  'Pax',
  'Quor',
  'Rhe',
  'Syl',
  'Tav',
  'Ulm',
  'Vex',
  'Wyn',
  'Xan',
  'Yel',
  'Zep',
  'Bel',
  'Cor',
];
const MIDDLE = ['a', 'e', 'i', 'o', 'u', 'ar', 'en', 'is', 'or', 'yl', 'am', 'et'];
const SUFFIX = [
  'tra',
  'vo',
  'nix',
  'dian',
  'lith',
  'mora',
  'quent',
  'sana',
  'vik',
  'zen',
  'rion',
  'tek',
  'ly',
  'ara',
  'oda',
  'mex',
];
const EXTRA = ['', '', '', 'ka', 'ro', 'ti', 'lo', 'sa', 'ne', 'bi', 'du', 'fe', 'go', 'hu', 'ji', 'ku'];

const SECTOR_WORDS: Record<SectorSlug, readonly string[]> = {
  healthcare: ['Health', 'Care', 'Clinical', 'Med'],
  edtech: ['Learning', 'Academy', 'Classroom', 'Tutor'],
  'ecommerce-infrastructure': ['Commerce', 'Checkout', 'Cart', 'Storefront'],
  'supply-chain': ['Logistics', 'Freight', 'Supply', 'Cargo'],
  web3: ['Chain', 'Ledger', 'Protocol', 'Labs'],
  'enterprise-saas': ['Cloud', 'Works', 'Suite', 'Ops'],
  'data-infrastructure': ['Data', 'Stream', 'Query', 'Base'],
  robotics: ['Robotics', 'Motion', 'Autonomy', 'Machines'],
  'legal-tech': ['Legal', 'Counsel', 'Contracts', 'Compliance'],
  'hr-tech': ['People', 'Talent', 'Hire', 'Payroll'],
  proptech: ['Homes', 'Property', 'Spaces', 'Build'],
  agtech: ['Farms', 'Harvest', 'Agro', 'Fields'],
  gaming: ['Games', 'Play', 'Studios', 'Arcade'],
  'space-tech': ['Orbital', 'Space', 'Aerospace', 'Satellite'],
  'social-community': ['Social', 'Community', 'Circles', 'Connect'],
};

const SECTOR_PHRASES: Record<SectorSlug, readonly string[]> = {
  healthcare: ['clinical data pipelines', 'patient scheduling software', 'medical imaging tooling'],
  edtech: ['adaptive learning tools', 'classroom analytics', 'course authoring software'],
  'ecommerce-infrastructure': ['headless checkout APIs', 'catalogue sync tooling', 'order routing services'],
  'supply-chain': ['freight visibility software', 'warehouse robotics orchestration', 'procurement workflows'],
  web3: ['smart-contract testing tools', 'wallet infrastructure', 'on-chain indexing'],
  'enterprise-saas': ['workflow automation', 'access-management tooling', 'internal developer portals'],
  'data-infrastructure': ['streaming ingestion', 'columnar query engines', 'data observability'],
  robotics: ['robot fleet orchestration', 'perception stacks', 'motion-planning libraries'],
  'legal-tech': ['contract analysis', 'compliance automation', 'e-discovery search'],
  'hr-tech': ['payroll APIs', 'recruiting pipelines', 'people analytics'],
  proptech: ['building-systems telemetry', 'property-management software', 'construction scheduling'],
  agtech: ['precision irrigation software', 'crop-yield models', 'farm-equipment telemetry'],
  gaming: ['multiplayer netcode', 'game-asset pipelines', 'live-ops tooling'],
  'space-tech': ['satellite ground-station software', 'orbit determination tools', 'earth-observation pipelines'],
  'social-community': ['community moderation tools', 'group messaging', 'creator membership platforms'],
};

const SECTOR_LANGUAGES: Record<SectorSlug, readonly string[]> = {
  healthcare: ['Python', 'TypeScript', 'Java'],
  edtech: ['TypeScript', 'Python', 'Ruby'],
  'ecommerce-infrastructure': ['TypeScript', 'Go', 'PHP'],
  'supply-chain': ['Java', 'Python', 'Go'],
  web3: ['Rust', 'Solidity', 'TypeScript'],
  'enterprise-saas': ['TypeScript', 'Go', 'Java'],
  'data-infrastructure': ['Rust', 'Go', 'Java', 'Python'],
  robotics: ['C++', 'Python', 'Rust'],
  'legal-tech': ['Python', 'TypeScript'],
  'hr-tech': ['TypeScript', 'Ruby', 'Python'],
  proptech: ['TypeScript', 'Python', 'Kotlin'],
  agtech: ['Python', 'Go', 'C'],
  gaming: ['C++', 'C#', 'Rust'],
  'space-tech': ['C++', 'Python', 'Rust'],
  'social-community': ['TypeScript', 'Elixir', 'Kotlin'],
};
const MIGRATION_TARGETS = ['Rust', 'Go', 'Zig', 'Kotlin', 'Elixir', 'TypeScript', 'Swift'];

const LOCATIONS = [
  'San Francisco, CA',
  'Berlin, Germany',
  'London, UK',
  'Bengaluru, India',
  'Toronto, Canada',
  'Paris, France',
  'Singapore',
  'New York, NY',
  'Lagos, Nigeria',
  'São Paulo, Brazil',
  'Stockholm, Sweden',
  'Tel Aviv, Israel',
  'Sydney, Australia',
  'Remote',
  'Austin, TX',
  'Tallinn, Estonia',
  'Seoul, South Korea',
  'Amsterdam, Netherlands',
  'Nairobi, Kenya',
  'Mexico City, Mexico',
  'Tokyo, Japan',
  'Zürich, Switzerland',
  '',
];

type Archetype = 'steady' | 'accelerating' | 'declining' | 'hiring' | 'buildout' | 'migration' | 'spike';
const ARCHETYPES: readonly Archetype[] = [
  'steady',
  'steady',
  'accelerating',
  'accelerating',
  'declining',
  'hiring',
  'hiring',
  'buildout',
  'migration',
  'spike',
  'spike',
];

interface OrgPlan {
  entry: WatchlistEntry;
  location: string;
  archetype: Archetype;
  baseTeam: number;
  perAuthorRate: number;
  trendPerWeek: number;
  eventDay: number;
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
      const extra = tries > 4 || count > 2000 ? random.pick(EXTRA) : '';
      name = `${random.pick(PREFIX)}${random.pick(MIDDLE)}${random.pick(SUFFIX)}${extra} ${random.pick(SECTOR_WORDS[sector])}`;
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
    const archetype = random.pick(ARCHETYPES);
    const baseTeam = Math.max(1, Math.min(80, Math.round(random.logNormal(6, 0.8))));
    const entry: WatchlistEntry = {
      login,
      displayName: name,
      sector,
      // The watchlist knows the stage of about half the companies; the rest are estimated by the classify stage.
      stage: random.chance(0.5) ? stageForTeam(baseTeam) : undefined,
      description: `Fictional demo company building ${random.pick(SECTOR_PHRASES[sector])}. Synthetic data, not a real startup.`,
      website: `https://${login}.example/`,
      linkedin: `https://linkedin.example/company/${login}`,
      github: `https://github.example/${login}`,
    };
    return {
      entry,
      location: random.pick(LOCATIONS),
      archetype,
      baseTeam,
      perAuthorRate: 0.6 + random.next() * 1.8,
      trendPerWeek:
        archetype === 'accelerating'
          ? 0.02 + random.next() * 0.05
          : archetype === 'declining'
            ? -(0.01 + random.next() * 0.04)
            : 0,
      eventDay: random.int(Math.floor(timelineDays * 0.2), timelineDays - 1),
    };
  });
}

/** Invented activity for one organisation from `firstDay` for `days` days. */
function generateActivity(plan: OrgPlan, seed: string, firstDay: string, days: number): RawOrgActivity {
  const random = new Random(`${seed}:org:${plan.entry.login}`);
  const languages = SECTOR_LANGUAGES[plan.entry.sector];
  const repos: RepoRecord[] = [];
  const repoDay = new Map<string, number>();
  const addRepo = (name: string, day: number, language: string | null, fork = false) => {
    repos.push({
      name,
      fork,
      createdAt: `${addDays(firstDay, day)}T${String(random.int(0, 23)).padStart(2, '0')}:00:00Z`,
      language,
    });
    if (!fork) repoDay.set(name, day);
  };
  const established = random.int(2, 10);
  for (let r = 0; r < established; r++) addRepo(`core-${r}`, -random.int(60, 1500), random.pick(languages));
  addRepo('upstream-fork', -random.int(60, 900), random.pick(languages), true);

  for (let day = 0; day < days; day++) {
    if (random.chance(0.012)) addRepo(`service-${day}`, day, random.pick(languages));
  }
  if (plan.archetype === 'buildout') {
    const count = random.int(3, 5);
    for (let r = 0; r < count; r++)
      addRepo(`infra-${r}`, plan.eventDay + random.int(0, 6), random.pick(['HCL', 'Go', 'Shell', 'Python']));
  }
  if (plan.archetype === 'migration') {
    const target = random.pick(MIGRATION_TARGETS.filter((l) => !languages.includes(l)));
    addRepo(`${target.toLowerCase()}-rewrite`, plan.eventDay, target);
  }

  const pool = Array.from({ length: plan.baseTeam * 3 + 4 }, (_, a) => `${plan.entry.login}-dev${a}`);
  const commits: DailyCommits[] = [];
  for (let day = 0; day < days; day++) {
    const date = addDays(firstDay, day);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    const workFactor = weekday === 0 || weekday === 6 ? 0.15 : 1;
    const sinceEvent = day - plan.eventDay;
    let team = plan.baseTeam;
    let intensity = Math.exp(plan.trendPerWeek * (day / 7));
    if (plan.archetype === 'hiring' && sinceEvent >= 0)
      team = Math.round(plan.baseTeam * (1.5 + Math.min(sinceEvent, 14) / 14));
    if (plan.archetype === 'spike' && sinceEvent >= 0 && sinceEvent < 12) intensity *= 2.6;
    if ((plan.archetype === 'buildout' || plan.archetype === 'migration') && sinceEvent >= 0 && sinceEvent < 21)
      intensity *= 1.5;
    const liveRepos = [...repoDay].filter(([, created]) => created <= day).map(([name]) => name);
    for (let a = 0; a < Math.min(team, pool.length); a++) {
      if (!random.chance(0.75)) continue;
      const count = random.poisson(plan.perAuthorRate * intensity * workFactor);
      if (count > 0) commits.push({ date, repo: random.pick(liveRepos), author: pool[a]!, commits: count });
    }
    // Automation and forks: present in raw activity, removed by the filter stage.
    if (weekday === 1)
      commits.push({ date, repo: random.pick(liveRepos), author: 'dependabot[bot]', commits: random.int(1, 6) });
    if (random.chance(0.3))
      commits.push({ date, repo: random.pick(liveRepos), author: 'github-actions[bot]', commits: random.int(1, 3) });
    if (random.chance(0.2)) commits.push({ date, repo: 'upstream-fork', author: pool[0]!, commits: random.int(1, 8) });
  }
  return {
    profile: {
      login: plan.entry.login,
      name: plan.entry.displayName,
      description: plan.entry.description ?? null,
      location: plan.location,
      blog: plan.entry.website ?? null,
    },
    repos,
    commits,
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
  for (const plan of plans) {
    const raw = generateActivity(plan, options.seed, firstDay, days);
    periods.forEach((period, i) => scored[i]!.push(scoreOrg({ entry: plan.entry, raw }, period)));
  }
  return {
    entries: plans.map((p) => p.entry),
    periods: periods.map((period, i) => ({ period, ranked: rank(scored[i]!) })),
  };
}
