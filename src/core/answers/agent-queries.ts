import { SIGNAL_TYPES, STAGES, type SectorSlug } from '../../schemas/enums.js';
import { drain, inChunks, type Steps } from '../../snapshot/steps.js';
import type { Fact, RelatedQuestion } from '../../schemas/answers.js';
import type { Snapshot, SnapshotStartup } from '../../snapshot/snapshot.js';
import {
  HIRING_BURST_MIN_NEW_REGULARS,
  HIRING_BURST_MIN_NEW_SHARE_PCT,
  INFRA_BUILDOUT_MIN_NEW_REPOS,
  DEPLOY_SPIKE_MIN_CHANGE_PCT,
  DEPLOY_SPIKE_MIN_DAYS,
  MIN_COMMITS_FOR_RANKING,
  MIN_CONTRIBUTORS_FOR_RANKING,
  NEW_CONTRIBUTOR_JOIN_DAYS,
  NEW_REGULAR_MIN_DAYS,
  NEW_REPO_DAYS,
  WINDOW_DAYS,
} from '../../domain/rules.js';
import { percentValue, researchFindings, SYNTHETIC_NOTE, warmResearch } from '../documents/research.js';
import { sectorInfo, sectors } from '../../domain/sectors.js';
import { siteUrls, type SiteUrls } from '../../domain/urls.js';
import { slugify, type AnswerEntry } from './entry.js';

/** A count with its noun, singular for one ("1 repository", "2 repositories"). */
function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Where a startup is based, as answer text says it: the pipeline's "Unknown" is no place. */
function whereBased(geography: string): string {
  return geography === 'Unknown' ? 'location unknown' : geography;
}

/**
 * Agent queries: the questions people and agents ask about the current period, generated from the snapshot every
 * period, with answers built from the data. Every fact links to the page or API URL that proves it. Ids are stable
 * across periods (`signal-<login>`, `top-<sector>`, …) so links to a question keep working.
 */
const LIST_SIZE = 5;
/** Comparisons generated per sector: every pair among its top three. */
const COMPARE_TOP = 3;

const SIGNAL_RULE: Record<(typeof SIGNAL_TYPES)[number], string> = {
  'Engineering hiring burst': `new people are the strongest evidence: the rule holds with at least ${HIRING_BURST_MIN_NEW_REGULARS} people who joined in the last ${NEW_CONTRIBUTOR_JOIN_DAYS / 7} weeks committing on ${NEW_REGULAR_MIN_DAYS} or more days of the last ${WINDOW_DAYS}, at least ${HIRING_BURST_MIN_NEW_SHARE_PCT}% of the prior window's people`,
  'Infrastructure buildout': `infrastructure is the strongest evidence: the rule holds with at least ${INFRA_BUILDOUT_MIN_NEW_REPOS} infrastructure repositories created in the last ${NEW_REPO_DAYS} days, or rising commits to infrastructure repositories`,
  'Framework migration': `a shift of commits between languages or dependency ecosystems versus the prior ${WINDOW_DAYS} days is the strongest evidence (it is also the type given when no type has any evidence)`,
  'Deploy frequency spike': `deploys are the strongest evidence: the rule holds with at least ${DEPLOY_SPIKE_MIN_DAYS} deploy days (releases, tags, deployments) and at least ${DEPLOY_SPIKE_MIN_CHANGE_PCT}% more than in the prior ${WINDOW_DAYS} days`,
};

/** The everyday words of each type's evidence (as the glossary describes it): what a question about it says. */
const SIGNAL_EVIDENCE_WORDS: Record<(typeof SIGNAL_TYPES)[number], string[]> = {
  'Engineering hiring burst': ['hiring', 'new contributors', 'engineers', 'team growth'],
  'Infrastructure buildout': ['infrastructure', 'infrastructure repositories', 'platform'],
  'Framework migration': ['languages', 'dependencies', 'frameworks', 'migrating', 'rewrite'],
  'Deploy frequency spike': ['deploys', 'releases', 'tags', 'deployments', 'frequency'],
};

const commitChange = (s: SnapshotStartup) => percentValue(s.startup.commitVelocityChange);

/**
 * Is a startup above the activity floor of the ranking (its commits and contributors in the window)? Ranked across
 * sectors or not: that rank also asks for evidence behind the signal type, which acceleration does not.
 */
function aboveActivityFloor(s: SnapshotStartup): boolean {
  return (
    Number(s.metrics['commitsCurrent']) >= MIN_COMMITS_FOR_RANKING &&
    Number(s.metrics['contributorsCurrent']) >= MIN_CONTRIBUTORS_FOR_RANKING
  );
}

/**
 * The `n` fastest accelerating of `list`, fastest first: by commit change, then by commits, then by login; startups
 * above the activity floor only (all when none is), and only those whose commits rose: a list that claims
 * acceleration never names a startup whose commits fell or stayed level (it may be shorter, or empty). Picked in one pass rather than by sorting the list: at 100,000
 * startups the sort, parsing each change again at every comparison, was half a second of the warm-up in one step.
 */
function fastestAccelerating(list: readonly SnapshotStartup[], n: number): SnapshotStartup[] {
  const eligible = list.filter(aboveActivityFloor);
  const best: { startup: SnapshotStartup; change: number }[] = [];
  const first = (a: (typeof best)[number], b: (typeof best)[number]) =>
    b.change - a.change ||
    b.startup.startup.commitVelocity14d - a.startup.startup.commitVelocity14d ||
    (a.startup.login < b.startup.login ? -1 : 1);
  for (const startup of eligible.length ? eligible : list) {
    const candidate = { startup, change: commitChange(startup) };
    if (candidate.change <= 0) continue;
    if (best.length === n && first(candidate, best[n - 1]!) >= 0) continue;
    let at = best.length;
    while (at > 0 && first(candidate, best[at - 1]!) < 0) at--;
    best.splice(at, 0, candidate);
    if (best.length > n) best.pop();
  }
  return best.map((b) => b.startup);
}

class Builder {
  readonly urls: SiteUrls;
  readonly entries: AnswerEntry[] = [];
  private readonly ids = new Map<string, AnswerEntry>();
  readonly period: string;
  readonly dataNote: string;
  /** Startups above the activity floor, ranked across sectors. */
  readonly eligible: number;
  /** The comparison questions each startup is a subject of, by login (filled by `link`). */
  readonly comparisonsOf = new Map<string, string[]>();

  constructor(
    readonly snapshot: Snapshot,
    baseUrl: string,
  ) {
    this.urls = siteUrls(baseUrl);
    this.period = snapshot.period.name;
    this.dataNote = snapshot.synthetic
      ? ' (Synthetic demo data: fictional startups with generated activity, not real companies.)'
      : '';
    this.eligible = snapshot.startups.filter((s) => s.eligible).length;
  }

  add(entry: Omit<AnswerEntry, 'url' | 'source' | 'related'>): AnswerEntry {
    const full: AnswerEntry = {
      ...entry,
      answer: entry.answer + this.dataNote,
      url: this.urls.answer(entry.id),
      source: 'agent-query',
      related: [],
    };
    return this.addEntry(full);
  }

  /** Adds an entry as it is (the first of an id wins). */
  addEntry(entry: AnswerEntry): AnswerEntry {
    const known = this.ids.get(entry.id);
    if (known) return known;
    this.ids.set(entry.id, entry);
    this.entries.push(entry);
    return entry;
  }

  get(id: string): AnswerEntry | undefined {
    return this.ids.get(id);
  }

  /** Up to four related questions: the entries of these ids that exist, each once, never the entry itself. */
  relatedOf(entry: AnswerEntry, ids: readonly string[]): RelatedQuestion[] {
    const related: RelatedQuestion[] = [];
    const seen = new Set<string>([entry.id]);
    for (const id of ids) {
      const other = this.ids.get(id);
      if (!other || seen.has(id) || related.length >= 4) continue;
      seen.add(id);
      related.push({ question: other.question, url: other.url });
    }
    return related;
  }

  relate(entry: AnswerEntry, ids: readonly string[]): void {
    entry.related = this.relatedOf(entry, ids);
  }

  signalApi(s: SnapshotStartup): string {
    return this.urls.api(`/api/signal?company=${encodeURIComponent(s.login)}`);
  }

  /** "Zoravik Robotics (+42% commits, Engineering hiring burst)" */
  brief(s: SnapshotStartup): string {
    return `${s.startup.name} (${s.startup.commitVelocityChange} commits, ${s.startup.commitVelocity14d} in ${WINDOW_DAYS} days, ${s.startup.signalType})`;
  }

  startupFact(s: SnapshotStartup): Fact {
    const t = s.startup;
    return {
      claim: `${t.name} made ${t.commitVelocity14d} commits in the ${WINDOW_DAYS} days to the end of ${this.period} (${t.commitVelocityChange} versus the prior ${WINDOW_DAYS} days); signal: ${t.signalType}.`,
      sourceUrl: this.urls.startup(s.login),
    };
  }

  numbered(list: readonly SnapshotStartup[]): string {
    return list.map((s, i) => `${i + 1}. ${this.brief(s)}`).join('; ');
  }

  /**
   * A fastest-accelerating answer: the startups of `who` whose commit velocity grew most, or that none grew (a list
   * claiming acceleration names only rises), with the facts of those it names or, when none, the page that shows it.
   */
  rising(
    who: string,
    fastest: readonly SnapshotStartup[],
    noneSource: string,
    across = '',
  ): Pick<AnswerEntry, 'answer' | 'facts'> {
    const startups = who ? `${who} startups` : 'startups';
    if (fastest.length === 0)
      return {
        answer: `In ${this.period}, no ${startups.replace(/s$/, '')}'s commit velocity grew versus the prior ${WINDOW_DAYS} days${across.replace(/,$/, '')}, so none is listed as accelerating.`,
        facts: [
          {
            claim: `No ${startups.replace(/s$/, '')} made more commits in the ${WINDOW_DAYS} days to the end of ${this.period} than in the prior ${WINDOW_DAYS} days.`,
            sourceUrl: noneSource,
          },
        ],
      };
    return {
      answer: `In ${this.period}, the ${startups} whose commit velocity grew most versus the prior ${WINDOW_DAYS} days${across} are: ${this.numbered(fastest)}.`,
      facts: fastest.map((s) => this.startupFact(s)),
    };
  }
}

/** Startups answered per step when the corpus is built in steps. */
const STARTUP_CHUNK = 1_000;

/**
 * The answer about one startup ("What is the engineering signal for …?"), written when it is read rather than held:
 * one per tracked startup, these are nearly the whole corpus, and held as text they were about 4.7 KB per startup (47
 * MB of the serving heap at 10,000 startups) for answers few are ever asked for. What it holds is the startup and the
 * period's builder; every read writes the same text from them.
 */
class StartupAnswer implements AnswerEntry {
  readonly id: string;

  constructor(
    private readonly b: Builder,
    private readonly s: SnapshotStartup,
  ) {
    this.id = `signal-${slugify(s.login)}`;
  }

  get kind(): 'startup' {
    return 'startup';
  }

  get source(): 'agent-query' {
    return 'agent-query';
  }

  get url(): string {
    return this.b.urls.answer(this.id);
  }

  get subjects(): string[] {
    return [this.s.login];
  }

  get sector(): SectorSlug {
    return this.s.sector;
  }

  get question(): string {
    return `What is the engineering signal for ${this.s.startup.name}?`;
  }

  get answer(): string {
    const { b, s } = this;
    const t = s.startup;
    const info = sectorInfo(s.sector);
    const aboveFloor = aboveActivityFloor(s);
    const overall =
      s.rankOverall !== null
        ? `and ${s.rankOverall} of the ${b.eligible} startups ranked across all sectors`
        : aboveFloor
          ? 'and is not ranked across sectors: no evidence stands behind its signal type this week'
          : `and is below the activity floor (${MIN_COMMITS_FOR_RANKING} commits and ${MIN_CONTRIBUTORS_FOR_RANKING} contributors in ${WINDOW_DAYS} days) for the cross-sector ranking`;
    return `${t.name} is a ${t.stage} ${info.name} startup (${whereBased(t.geography)}). In the ${WINDOW_DAYS} days to the end of ${b.period} it made ${counted(t.commitVelocity14d, 'commit')} (${t.commitVelocityChange} versus the prior ${WINDOW_DAYS} days) by ${counted(t.contributors, 'contributor')} (${t.contributorGrowth}) and created ${counted(t.newRepos, 'repository', 'repositories')} in ${NEW_REPO_DAYS} days; its signal is ${t.signalType}. It ranks ${s.rankInSector} of ${this.sectorCount} in ${info.name} ${overall}.${b.dataNote}`;
  }

  get facts(): Fact[] {
    const { b, s } = this;
    const t = s.startup;
    const info = sectorInfo(s.sector);
    return [
      b.startupFact(s),
      {
        claim: `${t.name} has ${counted(t.contributors, 'contributor')} (${t.contributorGrowth}) and ${counted(t.newRepos, 'new repository', 'new repositories')}.`,
        sourceUrl: b.signalApi(s),
      },
      {
        claim: `${t.name} ranks ${s.rankInSector} of ${this.sectorCount} in ${info.name}.`,
        sourceUrl: b.urls.sector(s.sector),
      },
    ];
  }

  get related(): RelatedQuestion[] {
    const { b, s } = this;
    return b.relatedOf(this, [
      `top-${s.sector}`,
      ...(b.comparisonsOf.get(s.login) ?? []).slice(0, 1),
      `signal-type-${slugify(s.startup.signalType)}`,
      `fastest-accelerating-${s.sector}`,
    ]);
  }

  get keywords(): string[] {
    const t = this.s.startup;
    return [this.s.login, sectorInfo(this.s.sector).name, t.signalType, t.stage];
  }

  private get sectorCount(): number {
    return this.b.snapshot.bySector.get(this.s.sector)?.length ?? 0;
  }
}

function* startupEntries(b: Builder): Steps<void> {
  yield* inChunks(b.snapshot.startups, STARTUP_CHUNK, (s) => b.addEntry(new StartupAnswer(b, s)));
}

function* sectorEntries(b: Builder): Steps<void> {
  const { snapshot, urls, period } = b;
  for (const info of sectors) {
    const list = snapshot.bySector.get(info.slug) ?? [];
    if (list.length === 0) continue;
    const top = list.slice(0, LIST_SIZE);
    b.add({
      id: `top-${info.slug}`,
      question: `Which ${info.name} startups have the strongest engineering signals?`,
      answer: `In ${period}, the top ${top.length} of ${list.length} ${info.name} startups by composite score (commit velocity, its change and new repositories) are: ${b.numbered(top)}.`,
      facts: [
        {
          claim: `The ${info.name} ranking for ${period} lists ${list.length} startups, led by ${top[0]!.startup.name}.`,
          sourceUrl: urls.sector(info.slug),
        },
        ...top.map((s) => b.startupFact(s)),
      ],
      kind: 'sector-top',
      subjects: top.map((s) => s.login),
      sector: info.slug,
      keywords: [info.slug, info.name, 'top', 'best', 'leading', 'ranking', 'sector', 'startups'],
    });
    const fastest = fastestAccelerating(list, LIST_SIZE);
    b.add({
      id: `fastest-accelerating-${info.slug}`,
      question: `Which are the fastest accelerating ${info.name} startups?`,
      ...b.rising(info.name, fastest, urls.sector(info.slug)),
      kind: 'sector-fastest',
      subjects: fastest.map((s) => s.login),
      sector: info.slug,
      keywords: [info.slug, info.name, 'fastest', 'accelerating', 'growth', 'momentum', 'growing', 'startups'],
    });
    yield;
  }
}

function* overallEntries(b: Builder): Steps<void> {
  const { snapshot, urls, period } = b;
  const trending = snapshot.trending;
  const signals = urls.api('/api/signals.json');
  b.add({
    id: 'trending',
    question: 'Which startups are trending this week?',
    answer: trending.length
      ? `In ${period}, the ${trending.length} trending startups across all sectors are led by: ${b.numbered(trending.slice(0, 10))}.`
      : `In ${period}, no startup is above the activity floor, so none is trending.`,
    facts: [
      { claim: `The trending list for ${period} has ${trending.length} startups.`, sourceUrl: signals },
      ...trending.slice(0, LIST_SIZE).map((s) => b.startupFact(s)),
    ],
    kind: 'trending',
    subjects: trending.map((s) => s.login),
    keywords: ['trending', 'top', 'hot', 'best', 'week', 'ranking', 'startups'],
  });
  yield;
  const fastest = fastestAccelerating(snapshot.startups, LIST_SIZE);
  b.add({
    id: 'fastest-accelerating',
    question: 'Which startups are accelerating fastest?',
    ...b.rising('', fastest, signals, ', across all sectors,'),
    kind: 'fastest',
    subjects: fastest.map((s) => s.login),
    keywords: ['fastest', 'accelerating', 'acceleration', 'growth', 'momentum', 'growing', 'startups'],
  });
  for (const type of SIGNAL_TYPES) {
    yield;
    const list = snapshot.startups.filter((s) => s.startup.signalType === type);
    const top = list.slice(0, LIST_SIZE);
    b.add({
      id: `signal-type-${slugify(type)}`,
      question: `Which startups show ${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type.toLowerCase()}?`,
      answer: `${type} means ${SIGNAL_RULE[type]}. In ${period}, ${list.length} of ${snapshot.startups.length} tracked startups show it${top.length ? `; the highest ranked are: ${b.numbered(top)}` : ''}.`,
      facts: [
        { claim: `${type}: ${SIGNAL_RULE[type]}.`, sourceUrl: urls.methodology() },
        ...top.map((s) => b.startupFact(s)),
      ],
      kind: 'signal-type',
      subjects: top.map((s) => s.login),
      keywords: [type, 'signal', 'type', 'startups', ...SIGNAL_EVIDENCE_WORDS[type]],
    });
  }
  for (const stage of STAGES) {
    yield;
    const ofStage = snapshot.startups.filter((s) => s.startup.stage === stage);
    if (ofStage.length === 0) continue;
    const list = fastestAccelerating(ofStage, LIST_SIZE);
    b.add({
      id: `fastest-accelerating-${slugify(stage)}`,
      question: `Which ${stage} startups are accelerating fastest?`,
      ...b.rising(stage, list, signals),
      kind: 'stage',
      subjects: list.map((s) => s.login),
      keywords: [stage, 'stage', 'fastest', 'accelerating', 'startups'],
    });
  }
}

function comparisonPairs(snapshot: Snapshot): [SnapshotStartup, SnapshotStartup][] {
  const pairs: [SnapshotStartup, SnapshotStartup][] = [];
  const seen = new Set<string>();
  const push = (a: SnapshotStartup, b: SnapshotStartup) => {
    const key = `${a.login}\n${b.login}`;
    if (a.login === b.login || seen.has(key)) return;
    seen.add(key);
    pairs.push([a, b]);
  };
  for (const info of sectors) {
    const top = (snapshot.bySector.get(info.slug) ?? []).slice(0, COMPARE_TOP);
    for (let i = 0; i < top.length; i++) for (let j = i + 1; j < top.length; j++) push(top[i]!, top[j]!);
  }
  const trending = snapshot.trending;
  for (let i = 0; i + 1 < Math.min(trending.length, 10); i++) push(trending[i]!, trending[i + 1]!);
  return pairs;
}

/** The comparison pages of the period: each sector's top three pairwise, and neighbours in the trending top 10. */
export function comparisons(snapshot: Snapshot): [SnapshotStartup, SnapshotStartup][] {
  return comparisonPairs(snapshot);
}

export function comparisonSummary(a: SnapshotStartup, b: SnapshotStartup, period: string): string {
  const leader = (x: number, y: number, what: string) =>
    x === y
      ? `${a.startup.name} and ${b.startup.name} have the same ${what}`
      : `${x > y ? a.startup.name : b.startup.name} leads on ${what} (${Math.max(x, y)} vs ${Math.min(x, y)})`;
  return `In ${period}, ${a.startup.name} (${sectorInfo(a.sector).name}, ${a.startup.stage}) made ${a.startup.commitVelocity14d} commits (${a.startup.commitVelocityChange}) with ${a.startup.contributors} contributors and shows ${a.startup.signalType}; ${b.startup.name} (${sectorInfo(b.sector).name}, ${b.startup.stage}) made ${b.startup.commitVelocity14d} commits (${b.startup.commitVelocityChange}) with ${b.startup.contributors} contributors and shows ${b.startup.signalType}. ${leader(a.scores.composite, b.scores.composite, 'composite score')}; ${leader(a.startup.commitVelocity14d, b.startup.commitVelocity14d, `commits in ${WINDOW_DAYS} days`)}.`;
}

function comparisonEntries(b: Builder): void {
  for (const [x, y] of comparisonPairs(b.snapshot)) b.add(comparisonOf(b, x, y));
}

function comparisonOf(
  b: Builder,
  x: SnapshotStartup,
  y: SnapshotStartup,
): Omit<AnswerEntry, 'url' | 'source' | 'related'> {
  return {
    id: `compare-${slugify(x.login)}-vs-${slugify(y.login)}`,
    question: `How does ${x.startup.name} compare with ${y.startup.name}?`,
    answer: comparisonSummary(x, y, b.period),
    facts: [
      b.startupFact(x),
      b.startupFact(y),
      {
        claim: `Side-by-side comparison of ${x.startup.name} and ${y.startup.name} for ${b.period}.`,
        sourceUrl: b.urls.compare(x.login, y.login),
      },
    ],
    kind: 'comparison',
    subjects: [x.login, y.login],
    sector: x.sector === y.sector ? x.sector : undefined,
    keywords: [x.login, y.login, 'compare', 'comparison', 'versus', 'vs', 'difference'],
  };
}

/**
 * The comparison of any two tracked startups, for a question that names both: the corpus holds the pairs its pages
 * link, a question may ask for any. Its URL is the comparison page, which serves every pair.
 */
export function comparisonAnswer(
  snapshot: Snapshot,
  baseUrl: string,
  x: SnapshotStartup,
  y: SnapshotStartup,
): AnswerEntry {
  const b = new Builder(snapshot, baseUrl);
  const entry = comparisonOf(b, x, y);
  return {
    ...entry,
    answer: entry.answer + b.dataNote,
    url: b.urls.compare(x.login, y.login),
    source: 'agent-query',
    related: [x, y].map((s) => ({
      question: `What is the engineering signal for ${s.startup.name}?`,
      url: b.urls.answer(`signal-${slugify(s.login)}`),
    })),
  };
}

function datasetEntries(b: Builder, baseUrl: string): void {
  const { snapshot, urls, period } = b;
  const eligible = snapshot.startups.filter((s) => s.eligible).length;
  const first = snapshot.periods[0];
  b.add({
    id: 'dataset-coverage',
    question: 'How many startups does the service track?',
    answer: `In ${period}, ${snapshot.startups.length} startups are tracked across ${sectors.length} sectors; ${eligible} are above the activity floor with evidence for their signal type, and so ranked across sectors. ${snapshot.periods.length} weekly periods are stored${first ? `, from ${first.name} to ${period}` : ''}.`,
    facts: [
      {
        claim: `meta.totalStartups is ${snapshot.meta.totalStartups} and meta.totalSectors is ${snapshot.meta.totalSectors} for ${period}.`,
        sourceUrl: urls.api('/api/signals.json'),
      },
      {
        claim: `The dataset export holds one record per startup and period for ${snapshot.periods.length} periods.`,
        sourceUrl: urls.api('/api/dataset.jsonl'),
      },
    ],
    kind: 'dataset',
    subjects: [],
    keywords: ['dataset', 'coverage', 'count', 'number', 'tracked', 'startups', 'sectors', 'periods', 'data'],
  });
  b.add({
    id: 'dataset-latest-period',
    question: 'What is the latest data period?',
    answer: `The current period is ${period} (${snapshot.period.slug}), published ${snapshot.period.publishedAt.toISOString()}. Periods are ISO weeks; a new one is published weekly.`,
    facts: [
      {
        claim: `meta.period.slug is ${snapshot.period.slug} and meta.lastUpdated is ${snapshot.meta.lastUpdated}.`,
        sourceUrl: urls.api('/api/signals.json'),
      },
    ],
    kind: 'dataset',
    subjects: [],
    keywords: ['latest', 'current', 'period', 'week', 'updated', 'last', 'fresh', 'data', 'date'],
  });
  for (const finding of researchFindings(snapshot, baseUrl)) {
    b.add({
      id: `research-${finding.slug}`,
      question: finding.question,
      answer: finding.synthetic ? finding.claim.slice(0, -(SYNTHETIC_NOTE.length + 1)) : finding.claim,
      facts: [
        { claim: finding.claim, sourceUrl: finding.url },
        { claim: `Recomputable from the ${period} data.`, sourceUrl: finding.sourceUrl },
      ],
      kind: 'research',
      subjects: [],
      keywords: ['research', 'finding', 'statistics', 'data', finding.slug.replace(/-/g, ' ')],
    });
  }
}

function* link(b: Builder): Steps<void> {
  for (const entry of b.entries) {
    if (entry.kind !== 'comparison') continue;
    for (const login of entry.subjects) b.comparisonsOf.set(login, [...(b.comparisonsOf.get(login) ?? []), entry.id]);
  }
  yield* inChunks(b.entries, STARTUP_CHUNK, (entry) => {
    switch (entry.kind) {
      // A startup's answer finds its related questions when read (StartupAnswer).
      case 'startup':
        break;
      case 'sector-top':
      case 'sector-fastest':
        b.relate(entry, [
          entry.kind === 'sector-top' ? `fastest-accelerating-${entry.sector}` : `top-${entry.sector}`,
          ...entry.subjects.slice(0, 2).map((l) => `signal-${slugify(l)}`),
          'trending',
        ]);
        break;
      case 'comparison':
        b.relate(entry, [
          ...entry.subjects.map((l) => `signal-${slugify(l)}`),
          ...(entry.sector ? [`top-${entry.sector}`] : ['trending']),
        ]);
        break;
      case 'dataset':
      case 'research':
        b.relate(entry, ['dataset-coverage', 'dataset-latest-period', 'trending', 'research-signal-type-share']);
        break;
      default:
        b.relate(entry, [
          ...entry.subjects.slice(0, 2).map((l) => `signal-${slugify(l)}`),
          entry.kind === 'trending' ? 'fastest-accelerating' : 'trending',
          'dataset-coverage',
        ]);
    }
  });
}

/** Every agent query of the snapshot's period. */
export function buildAgentQueries(snapshot: Snapshot, baseUrl: string): AnswerEntry[] {
  return drain(agentQuerySteps(snapshot, baseUrl));
}

/** `buildAgentQueries` in steps of STARTUP_CHUNK startups (see steps.ts). */
export function* agentQuerySteps(snapshot: Snapshot, baseUrl: string): Steps<AnswerEntry[]> {
  const b = new Builder(snapshot, baseUrl);
  yield* startupEntries(b);
  yield;
  yield* sectorEntries(b);
  yield* overallEntries(b);
  yield;
  comparisonEntries(b);
  yield;
  yield* warmResearch(snapshot);
  datasetEntries(b, baseUrl);
  yield;
  yield* link(b);
  return b.entries;
}
