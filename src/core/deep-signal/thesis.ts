import { createHash } from 'node:crypto';
import { signalLabel } from '../../domain/signal-label.js';
import { MIN_COMMITS_FOR_RANKING, MIN_CONTRIBUTORS_FOR_RANKING, TRENDING_SIZE } from '../../domain/rules.js';
import type { SnapshotStartup } from '../../snapshot/snapshot.js';
import type { HistoryEntry } from '../../domain/period-startup.js';
import { sectorInfo } from '../../domain/sectors.js';
import type { SectorStanding } from './scores.js';

/**
 * The thesis: a few plain sentences read off the numbers of the payload (position, the strongest and weakest sector
 * score, what the signal type means, the trend over the stored weeks) and a closing reminder of what the data is.
 * Wording varies between startups (a template is picked by a hash of the login and period), but every sentence
 * states a number from the payload or a rule from the methodology, never more.
 */
export interface ThesisInput {
  startup: SnapshotStartup;
  standing: SectorStanding;
  periodName: string;
  history: readonly HistoryEntry[];
  synthetic: boolean;
}

/** Weeks back the trend sentence compares with. */
export const TREND_WEEKS = 4;

type Dimension = 'velocity' | 'growth' | 'novelty';

function pick<T>(seed: number, options: readonly T[]): T {
  return options[seed % options.length]!;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function evidence(s: SnapshotStartup, dim: Dimension): string {
  const st = s.startup;
  if (dim === 'velocity') return `${plural(st.commitVelocity14d, 'commit')} in the last 14 days`;
  if (dim === 'growth')
    return `commits ${st.commitVelocityChange} and contributors ${st.contributorGrowth} against the prior 14 days`;
  return `${plural(st.newRepos, 'new public repository', 'new public repositories')} in 30 days`;
}

function position(input: ThesisInput, seed: number): string {
  const { startup, standing, periodName } = input;
  const sector = sectorInfo(startup.sector).name;
  const at = `#${standing.inSector} of ${standing.sectorTotal}`;
  const name = startup.startup.name;
  if (standing.sectorPercentile >= 80) {
    return pick(seed, [
      `${name} is among the leaders of ${sector}: ${at} in ${periodName}.`,
      `In ${periodName}, ${name} ranks ${at} in ${sector}, near the top of its sector.`,
    ]);
  }
  if (standing.sectorPercentile >= 40) {
    return pick(seed, [
      `${name} sits in the middle of ${sector}, ${at} in ${periodName}.`,
      `In ${periodName}, ${name} ranks ${at} in ${sector}, mid-table.`,
    ]);
  }
  return pick(seed, [
    `${name} trails most of ${sector} this period, at ${at} (${periodName}).`,
    `In ${periodName}, ${name} ranks ${at} in ${sector}, in the lower part of its sector.`,
  ]);
}

function strengths(input: ThesisInput, seed: number): string {
  const { startup, standing } = input;
  const dims = (['velocity', 'growth', 'novelty'] as const)
    .map((d) => ({ d, score: standing.scores[d] }))
    .sort((a, b) => b.score - a.score);
  const best = dims[0]!;
  const worst = dims[2]!;
  const parts: string[] = [];
  if (best.score >= 60) {
    parts.push(
      pick(seed, [
        `Its strongest reading is ${best.d}: ${evidence(startup, best.d)}, a sector percentile of ${best.score}.`,
        `${best.d[0]!.toUpperCase()}${best.d.slice(1)} stands out, with ${evidence(startup, best.d)} (sector percentile ${best.score}).`,
      ]),
    );
  } else {
    parts.push(
      `No score stands out: the best is ${best.d} at a sector percentile of ${best.score} (${evidence(startup, best.d)}).`,
    );
  }
  if (worst.score <= 30 && worst.d !== best.d) {
    parts.push(`The weak spot is ${worst.d}: ${evidence(startup, worst.d)}, percentile ${worst.score}.`);
  }
  return parts.join(' ');
}

/**
 * What the signal type rests on, from the record's label: the evidence measured for it, or that there was none (so
 * the sentence never reads a rule into a type that was given for want of evidence).
 */
function signalMeaning(s: SnapshotStartup): string {
  const type = s.startup.signalType;
  const label = signalLabel(type, s.metrics);
  const what = `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type.toLowerCase()}`;
  const detail = label.signalEvidence.slice(label.signalEvidence.indexOf(': ') + 2);
  return label.signalStrength === 'none'
    ? 'It shows no clear signal this week: no signal type has evidence behind it.'
    : `It is classed as ${what} on ${label.signalStrength} evidence: ${detail}.`;
}

function trend(input: ThesisInput, seed: number): string {
  const { history, startup } = input;
  if (history.length < 2) return 'This is its first stored week, so there is no trend yet.';
  const current = history.at(-1)!;
  const back = history[Math.max(0, history.length - 1 - TREND_WEEKS)]!;
  const weeks = history.length - 1 - history.indexOf(back);
  const parts: string[] = [];
  if (back.sector === current.sector) {
    const moved = back.rankInSector - current.rankInSector;
    const ago = weeks === 1 ? 'A week earlier' : `${weeks} stored weeks earlier`;
    parts.push(
      moved > 0
        ? `${ago} (${back.periodName}) it was #${back.rankInSector} in its sector, so it has climbed ${plural(moved, 'place')}.`
        : moved < 0
          ? `${ago} (${back.periodName}) it was #${back.rankInSector} in its sector, so it has slipped ${plural(-moved, 'place')}.`
          : `${ago} (${back.periodName}) it held the same sector position, #${back.rankInSector}.`,
    );
  }
  const trendingWeeks = history.filter((h) => h.rankOverall !== null && h.rankOverall <= TRENDING_SIZE).length;
  if (trendingWeeks > 0) {
    parts.push(
      pick(seed >> 1, [
        `It made the cross-sector top ${TRENDING_SIZE} in ${trendingWeeks} of the ${history.length} stored weeks.`,
        `${startup.startup.name} was in the cross-sector top ${TRENDING_SIZE} in ${trendingWeeks} of ${history.length} stored weeks.`,
      ]),
    );
  }
  return parts.join(' ');
}

function caveat(input: ThesisInput, seed: number): string {
  const { startup } = input;
  const parts: string[] = [];
  const aboveFloor =
    startup.startup.commitVelocity14d >= MIN_COMMITS_FOR_RANKING &&
    startup.startup.contributors >= MIN_CONTRIBUTORS_FOR_RANKING;
  if (!aboveFloor) {
    parts.push(
      `With ${plural(startup.startup.commitVelocity14d, 'commit')} and ${plural(startup.startup.contributors, 'contributor')} it is below the activity floor of the cross-sector ranking (${MIN_COMMITS_FOR_RANKING} commits and ${MIN_CONTRIBUTORS_FOR_RANKING} contributors), so small changes move its percentiles a lot.`,
    );
  } else if (!startup.eligible) {
    parts.push('Without evidence for its signal type it is not ranked across sectors, so it cannot trend.');
  }
  parts.push(
    pick(seed >> 2, [
      'All of this is public code activity: it says nothing about revenue, customers or funding.',
      'These are signals from public repositories only; private work, revenue and funding are not in the data.',
    ]),
  );
  return parts.join(' ');
}

export function writeThesis(input: ThesisInput): string {
  const seed = createHash('sha256').update(`${input.startup.login}\n${input.periodName}`).digest().readUInt32BE(0);
  const sentences = [
    position(input, seed),
    strengths(input, seed),
    signalMeaning(input.startup),
    trend(input, seed),
    caveat(input, seed),
  ].filter(Boolean);
  const text = sentences.join(' ');
  return input.synthetic ? `Synthetic demo data (a fictional startup). ${text}` : text;
}
