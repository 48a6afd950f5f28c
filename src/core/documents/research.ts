import { derivePerBase } from '../answers/derive.js';
import { SIGNAL_TYPES, STAGES, type SectorSlug } from '../../schemas/enums.js';
import { deriveInSteps, type Snapshot, type SnapshotStartup } from '../../snapshot/snapshot.js';
import type { Steps } from '../../snapshot/steps.js';
import {
  MIN_COMMITS_FOR_RANKING,
  MIN_CONTRIBUTORS_FOR_RANKING,
  NEW_REPO_DAYS,
  WINDOW_DAYS,
} from '../../domain/rules.js';
import { sectorInfo, sectors } from '../../domain/sectors.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * Research findings: aggregate statements about the current period, computed from the snapshot (never typed in).
 * Each has a stable slug (the same every period, so citations and links keep working), a title, the claim as one
 * sentence carrying its numbers, and the numbers themselves in `values`. They feed site search (`type=research`),
 * the citation exports and the feed.
 */
export interface ResearchFinding {
  slug: string;
  title: string;
  /** The question the finding answers (used by the answer corpus). */
  question: string;
  /** The sentence with its numbers. */
  claim: string;
  /** siteUrls(baseUrl).research(slug) */
  url: string;
  period: string;
  values: Record<string, number | string>;
  /** The API document the numbers can be recomputed from. */
  sourceUrl: string;
  /** True when the snapshot is the synthetic demo dataset (the claim then says so). */
  synthetic: boolean;
}

/** The slugs, in the order findings are listed. Stable across periods. */
export const RESEARCH_SLUGS = [
  'median-commit-velocity-by-sector',
  'median-commit-change-by-sector',
  'signal-type-share',
  'stage-mix',
  'accelerating-share',
  'contributor-growth-by-stage',
  'new-repository-activity',
  'trending-sector-mix',
  'ranking-eligibility',
  'geography-mix',
] as const;

export const SYNTHETIC_NOTE = 'Computed from the synthetic demo dataset (fictional startups, not real companies).';

/** Parses the published signed-percent text ("+42%", "-7%") back to a number. */
export function percentValue(text: string): number {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) ? value : 0;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  // A typed array sorts numerically in native code: several times faster than a comparator over 100,000 values.
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  const value = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(value * 10) / 10;
}

/** Share in percent with one decimal. */
function share(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10;
}

const signed = (n: number) => `${n > 0 ? '+' : ''}${n}%`;

function countBy<K extends string>(items: readonly SnapshotStartup[], key: (s: SnapshotStartup) => K): Map<K, number> {
  const counts = new Map<K, number>();
  for (const item of items) {
    const k = key(item);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Sector medians, highest first (ties by sector order), over sectors that have startups. */
function sectorMedians(snapshot: Snapshot, value: (s: SnapshotStartup) => number): [SectorSlug, number][] {
  return sectors
    .map((info) => [info.slug, snapshot.bySector.get(info.slug) ?? []] as const)
    .filter(([, list]) => list.length > 0)
    .map(([slug, list]) => [slug, median(list.map(value))] as [SectorSlug, number])
    .sort((a, b) => b[1] - a[1]);
}

type Draft = Omit<ResearchFinding, 'url' | 'period' | 'synthetic' | 'sourceUrl'> & { sourceUrl?: string };

/** The findings' drafts, in a few steps (see steps.ts): at 100,000 startups they were half a second of work. */
function* computeSteps(snapshot: Snapshot): Steps<Draft[]> {
  const all = snapshot.startups;
  const total = all.length;
  const commits = (s: SnapshotStartup) => s.startup.commitVelocity14d;
  const commitChange = (s: SnapshotStartup) => percentValue(s.startup.commitVelocityChange);
  const period = snapshot.period.name;

  const velocity = sectorMedians(snapshot, commits);
  yield;
  const change = sectorMedians(snapshot, commitChange);
  yield;
  const [fastest, slowest] = [velocity[0], velocity.at(-1)];
  const [changeLeader, changeLaggard] = [change[0], change.at(-1)];

  const types = countBy(all, (s) => s.startup.signalType);
  yield;
  const typeOrder = [...SIGNAL_TYPES].sort((a, b) => (types.get(b) ?? 0) - (types.get(a) ?? 0));
  const stages = countBy(all, (s) => s.startup.stage);

  const up = all.filter((s) => commitChange(s) > 0).length;
  const down = all.filter((s) => commitChange(s) < 0).length;
  const flat = total - up - down;
  yield;

  const growthByStage = STAGES.map((stage) => {
    const list = all.filter((s) => s.startup.stage === stage);
    const growing = list.filter((s) => percentValue(s.startup.contributorGrowth) > 0).length;
    return {
      stage,
      count: list.length,
      growingShare: share(growing, list.length),
      median: median(list.map((s) => percentValue(s.startup.contributorGrowth))),
    };
  });

  yield;
  const withNewRepo = all.filter((s) => s.startup.newRepos > 0).length;
  const newReposTotal = all.reduce((sum, s) => sum + s.startup.newRepos, 0);

  const trendingSectors = countBy(snapshot.trending, (s) => s.sector);
  const trendingOrder = [...trendingSectors].sort(
    (a, b) => b[1] - a[1] || sectors.findIndex((x) => x.slug === a[0]) - sectors.findIndex((x) => x.slug === b[0]),
  );
  const eligible = all.filter((s) => s.eligible).length;
  yield;

  const places = [...countBy(all, (s) => s.startup.geography)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const topPlaces = places.slice(0, 5);

  const name = (slug: SectorSlug | undefined) => (slug ? sectorInfo(slug).name : 'none');
  yield;

  return [
    {
      slug: 'median-commit-velocity-by-sector',
      title: 'Median 14-day commit velocity by sector',
      question: 'What is the median commit velocity in each sector?',
      claim: fastest
        ? `In ${period}, the median tracked startup made ${median(all.map(commits))} commits over ${WINDOW_DAYS} days; ${name(fastest[0])} had the highest sector median (${fastest[1]}) and ${name(slowest![0])} the lowest (${slowest![1]}).`
        : `In ${period}, no startup is tracked.`,
      values: {
        overall: median(all.map(commits)),
        highestSector: fastest?.[0] ?? '',
        lowestSector: slowest?.[0] ?? '',
        ...Object.fromEntries(velocity),
      },
    },
    {
      slug: 'median-commit-change-by-sector',
      title: 'Median commit-velocity change by sector',
      question: 'Which sector is accelerating most?',
      claim: changeLeader
        ? `In ${period}, the median change in commit velocity versus the prior ${WINDOW_DAYS} days was ${signed(median(all.map(commitChange)))} across all tracked startups, from ${signed(changeLeader[1])} in ${name(changeLeader[0])} to ${signed(changeLaggard![1])} in ${name(changeLaggard![0])}.`
        : `In ${period}, no startup is tracked.`,
      values: {
        overall: median(all.map(commitChange)),
        leadingSector: changeLeader?.[0] ?? '',
        laggingSector: changeLaggard?.[0] ?? '',
        ...Object.fromEntries(change),
      },
    },
    {
      slug: 'signal-type-share',
      title: 'Share of startups per signal type',
      question: 'What share of startups shows each signal type?',
      claim: `In ${period}, of ${total} tracked startups, ${typeOrder.map((t) => `${share(types.get(t) ?? 0, total)}% showed ${t}`).join(', ')}.`,
      values: Object.fromEntries(
        SIGNAL_TYPES.flatMap((t) => [
          [t, share(types.get(t) ?? 0, total)],
          [`${t} (count)`, types.get(t) ?? 0],
        ]),
      ),
    },
    {
      slug: 'stage-mix',
      title: 'Stage mix of tracked startups',
      question: 'What is the stage mix of tracked startups?',
      claim: `In ${period}, the ${total} tracked startups were ${STAGES.map((s) => `${share(stages.get(s) ?? 0, total)}% ${s}`).join(', ')}.`,
      values: Object.fromEntries(
        STAGES.flatMap((s) => [
          [s, share(stages.get(s) ?? 0, total)],
          [`${s} (count)`, stages.get(s) ?? 0],
        ]),
      ),
    },
    {
      slug: 'accelerating-share',
      title: 'Share of startups accelerating',
      question: 'What share of startups is accelerating?',
      claim: `In ${period}, ${share(up, total)}% of tracked startups (${up} of ${total}) committed more than in the prior ${WINDOW_DAYS} days, ${share(down, total)}% (${down}) committed less and ${share(flat, total)}% (${flat}) were unchanged.`,
      values: {
        accelerating: up,
        decelerating: down,
        unchanged: flat,
        acceleratingShare: share(up, total),
        deceleratingShare: share(down, total),
        total,
      },
    },
    {
      slug: 'contributor-growth-by-stage',
      title: 'Contributor growth by stage',
      question: 'How does contributor growth differ by startup stage?',
      claim: `In ${period}, the share of startups with more unique human contributors than in the prior ${WINDOW_DAYS} days was ${growthByStage
        .filter((g) => g.count > 0)
        .map(
          (g) =>
            `${g.growingShare}% at ${g.stage} (median change ${signed(g.median)}, ${g.count} startup${g.count === 1 ? '' : 's'})`,
        )
        .join(', ')}.`,
      values: Object.fromEntries(
        growthByStage.flatMap((g) => [
          [`${g.stage} (growing share)`, g.growingShare],
          [`${g.stage} (median change)`, g.median],
        ]),
      ),
    },
    {
      slug: 'new-repository-activity',
      title: 'New repository activity',
      question: 'How many startups created new repositories?',
      claim: `In ${period}, ${share(withNewRepo, total)}% of tracked startups (${withNewRepo} of ${total}) created at least one public repository in the last ${NEW_REPO_DAYS} days, ${newReposTotal} new repositories in all.`,
      values: {
        startupsWithNewRepos: withNewRepo,
        share: share(withNewRepo, total),
        newReposTotal,
        medianNewRepos: median(all.map((s) => s.startup.newRepos)),
      },
    },
    {
      slug: 'trending-sector-mix',
      title: 'Sectors among the trending startups',
      question: 'Which sectors do the trending startups come from?',
      claim:
        snapshot.trending.length > 0
          ? `In ${period}, the ${snapshot.trending.length} trending startups came from ${trendingSectors.size} sectors, led by ${trendingOrder
              .slice(0, 3)
              .map(([slug, n]) => `${name(slug)} (${n})`)
              .join(', ')}.`
          : `In ${period}, no startup was above the activity floor with evidence for its signal type, so none is trending.`,
      values: {
        trending: snapshot.trending.length,
        sectorsRepresented: trendingSectors.size,
        ...Object.fromEntries(trendingOrder),
      },
    },
    {
      slug: 'ranking-eligibility',
      title: 'Startups above the activity floor',
      question: 'How many startups are ranked above the activity floor?',
      claim: `In ${period}, ${share(eligible, total)}% of tracked startups (${eligible} of ${total}) had at least ${MIN_COMMITS_FOR_RANKING} commits and ${MIN_CONTRIBUTORS_FOR_RANKING} human contributors in ${WINDOW_DAYS} days and evidence for their signal type, and were ranked across sectors.`,
      values: { eligible, total, share: share(eligible, total) },
    },
    {
      slug: 'geography-mix',
      title: 'Where tracked startups are',
      question: 'Where are the tracked startups located?',
      claim: `In ${period}, the most common locations of tracked startups were ${topPlaces.map(([place, n]) => `${place} (${n})`).join(', ')}, out of ${places.length} distinct locations.`,
      values: { distinct: places.length, ...Object.fromEntries(topPlaces) },
      sourceUrl: '/api/dataset.jsonl',
    },
  ];
}

const computed = deriveInSteps(computeSteps);

/** The findings' shared computation as steps, for a warm-up that builds what reads them (the answer corpus). */
export function warmResearch(snapshot: Snapshot): Steps<unknown> {
  return computed.warm(snapshot);
}

/** Every finding for the snapshot's period, with canonical URLs on `baseUrl`. Computed once per snapshot. */
export const researchFindings = derivePerBase((snapshot: Snapshot, baseUrl: string): ResearchFinding[] => {
  const urls = siteUrls(baseUrl);
  return computed(snapshot).map((draft) => ({
    ...draft,
    claim: snapshot.synthetic ? `${draft.claim} ${SYNTHETIC_NOTE}` : draft.claim,
    url: urls.research(draft.slug),
    period: snapshot.period.slug,
    sourceUrl: urls.api(draft.sourceUrl ?? '/api/signals.json'),
    synthetic: snapshot.synthetic,
  }));
});

export function researchFinding(snapshot: Snapshot, baseUrl: string, slug: string): ResearchFinding | undefined {
  return researchFindings(snapshot, baseUrl).find((f) => f.slug === slug);
}
