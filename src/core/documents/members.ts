import path from 'node:path';
import { TRENDING_SIZE } from '../../domain/rules.js';
import {
  MembersCohortContent,
  MembersContent,
  type MembersLedger,
  type PICK_OUTCOMES,
} from '../../schemas/documents.js';
import { DocumentContentError, readYamlContent, resolveSiteUrl } from './content.js';
import { DATA_LICENSE } from '../../domain/license.js';
import {
  comparePeriods,
  isoDay,
  parsePeriodSlug,
  periodContaining,
  shiftPeriod,
  type PeriodRef,
} from '../../domain/periods.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * The members ledger. Members and their picks are data (content/members/); every pick is graded against the
 * trending rankings of our own published periods, so anyone can check an outcome in /api/v1/dataset.jsonl.
 *
 * A pick names a startup (GitHub organisation login), the day it was made and a window of N weeks: the N ISO weeks
 * after the week of the pick (the pick's own week never counts, since its data could already be seen).
 */
export const MEMBERS_DIR = 'members';
export const COHORT_FILE = path.join(MEMBERS_DIR, 'cohort.yaml');
export const MEMBERS_FILE = path.join(MEMBERS_DIR, 'members.yaml');

export type PickOutcome = (typeof PICK_OUTCOMES)[number];

export const GRADING_RULES = {
  hit: `The picked startup ranked in the trending top ${TRENDING_SIZE} (all sectors) of at least one period published for a week inside the pick's window. A hit is final as soon as that period is published.`,
  miss: `The pick's window has closed (the period of its last week is published) and the startup ranked in the trending top ${TRENDING_SIZE} of none of the periods published for its weeks.`,
  pending: `Neither yet: the window's last week has not been published and no period so far had the startup in the trending top ${TRENDING_SIZE}.`,
} as const;

export interface MembersData {
  cohort: MembersCohortContent;
  members: MembersContent['members'];
}

/** One appearance of a startup in a published trending list. */
export interface TrendingAppearance {
  period: string;
  login: string;
  rank: number;
  name: string;
}

export interface LedgerInput {
  data: MembersData;
  /** Every published period slug, oldest first. */
  publishedPeriods: readonly { slug: string; publishedAt: Date }[];
  /** Trending appearances (rank ≤ TRENDING_SIZE) across the published periods. */
  trending: readonly TrendingAppearance[];
  /** Display names of tracked startups by lower-case login (the current period's names win). */
  names: ReadonlyMap<string, string>;
  baseUrl: string;
}

export function checkMembers(data: MembersData, where = MEMBERS_FILE): MembersData {
  const handles = new Set<string>();
  for (const member of data.members) {
    if (handles.has(member.handle)) throw new DocumentContentError(where, `duplicate handle ${member.handle}`);
    handles.add(member.handle);
    for (const pick of member.picks) {
      if (pick.picked_on < member.joined) {
        throw new DocumentContentError(where, `${member.handle}: a pick on ${pick.picked_on} predates joining`);
      }
    }
  }
  const claimed = data.members.filter((m) => !m.sample).length;
  if (claimed > data.cohort.total_seats) {
    throw new DocumentContentError(where, `${claimed} members but only ${data.cohort.total_seats} seats`);
  }
  return data;
}

export function readMembers(dir: string): MembersData {
  return checkMembers({
    cohort: readYamlContent(dir, COHORT_FILE, MembersCohortContent),
    members: readYamlContent(dir, MEMBERS_FILE, MembersContent).members,
  });
}

/** The weeks a pick covers: the `windowWeeks` ISO weeks after the week it was made in. */
export function pickWindow(pickedOn: string, windowWeeks: number): { first: PeriodRef; last: PeriodRef } {
  const week = periodContaining(new Date(`${pickedOn}T12:00:00Z`));
  return { first: shiftPeriod(week, 1), last: shiftPeriod(week, windowWeeks) };
}

interface Graded {
  outcome: PickOutcome;
  period: string | null;
  rank: number | null;
}

function grade(
  login: string,
  window: { first: PeriodRef; last: PeriodRef },
  appearances: readonly TrendingAppearance[],
  latest: PeriodRef | undefined,
): Graded {
  const inWindow = (slug: string) => {
    const p = parsePeriodSlug(slug);
    return comparePeriods(p, window.first) >= 0 && comparePeriods(p, window.last) <= 0;
  };
  const hits = appearances
    .filter((a) => a.login.toLowerCase() === login.toLowerCase() && a.rank <= TRENDING_SIZE && inWindow(a.period))
    .sort((a, b) => comparePeriods(parsePeriodSlug(a.period), parsePeriodSlug(b.period)));
  const first = hits[0];
  if (first) return { outcome: 'hit', period: first.period, rank: first.rank };
  if (latest && comparePeriods(latest, window.last) >= 0) return { outcome: 'miss', period: null, rank: null };
  return { outcome: 'pending', period: null, rank: null };
}

/** Leaderboard order: hits, then closed windows, then picks (each descending), then handle. */
export function compareLeaders(
  a: { hits: number; closed_windows: number; picks: number; handle: string },
  b: { hits: number; closed_windows: number; picks: number; handle: string },
): number {
  return (
    b.hits - a.hits ||
    b.closed_windows - a.closed_windows ||
    b.picks - a.picks ||
    (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0)
  );
}

const pct = (part: number, whole: number) => (whole === 0 ? null : Math.round((100 * part) / whole));

export function buildMembersLedger(input: LedgerInput): MembersLedger {
  const { data, baseUrl } = input;
  const urls = siteUrls(baseUrl);
  const datasetUrl = urls.api('/api/v1/dataset.jsonl');
  const latestSlug = input.publishedPeriods.at(-1)?.slug;
  const latest = latestSlug ? parsePeriodSlug(latestSlug) : undefined;
  const names = new Map(input.names);
  for (const a of input.trending) if (!names.has(a.login.toLowerCase())) names.set(a.login.toLowerCase(), a.name);

  const members = data.members.map((member) => {
    const picks = member.picks.map((pick) => {
      const window = pickWindow(pick.picked_on, pick.window_weeks);
      const graded = grade(pick.startup, window, input.trending, latest);
      return {
        startup: pick.startup,
        name: names.get(pick.startup.toLowerCase()) ?? null,
        picked_on: pick.picked_on,
        window_weeks: pick.window_weeks,
        window_first_period: window.first.slug,
        window_last_period: window.last.slug,
        outcome: graded.outcome,
        outcome_period: graded.period,
        outcome_rank: graded.rank,
        source_url: graded.period ? urls.period(graded.period) : datasetUrl,
        thesis: pick.thesis ?? null,
      };
    });
    const count = (o: PickOutcome) => picks.filter((p) => p.outcome === o).length;
    return {
      handle: member.handle,
      joined: member.joined,
      sample: member.sample,
      picks,
      total_picks: picks.length,
      hits: count('hit'),
      misses: count('miss'),
      pending: count('pending'),
    };
  });

  const leaderboard = members
    .map((m) => ({
      handle: m.handle,
      hits: m.hits,
      closed_windows: m.hits + m.misses,
      picks: m.total_picks,
      hit_rate_pct: pct(m.hits, m.hits + m.misses),
      sample: m.sample,
    }))
    .sort(compareLeaders)
    .map((entry, i) => ({ position: i + 1, ...entry }));

  const totalHits = members.reduce((n, m) => n + m.hits, 0);
  const totalClosed = members.reduce((n, m) => n + m.hits + m.misses, 0);
  const claimed = members.filter((m) => !m.sample).length;
  const newestPublication = input.publishedPeriods.reduce<string | undefined>((latestDay, p) => {
    const day = isoDay(p.publishedAt);
    return !latestDay || day > latestDay ? day : latestDay;
  }, undefined);
  const cohort = data.cohort;
  return {
    schema: `${urls.api('/api/v1/openapi.json')}#/components/schemas/MembersLedger`,
    version: cohort.version,
    license: DATA_LICENSE.url,
    cohort: {
      name: cohort.name,
      total_seats: cohort.total_seats,
      seats_claimed: claimed,
      seats_open: Math.max(0, cohort.total_seats - claimed),
      hub_url: resolveSiteUrl(baseUrl, cohort.hub_path),
      leaderboard_url: resolveSiteUrl(baseUrl, cohort.leaderboard_path),
      apply_url: resolveSiteUrl(baseUrl, cohort.apply_path),
      anonymity_rule: cohort.anonymity_rule,
    },
    aggregate: {
      total_picks: members.reduce((n, m) => n + m.total_picks, 0),
      total_hits: totalHits,
      total_closed_windows: totalClosed,
      cohort_hit_rate_pct: pct(totalHits, totalClosed),
    },
    members,
    leaderboard,
    grading_rules: { ...GRADING_RULES },
    // Grades change when a period is published, so the ledger is as new as the newer of the data and the periods.
    last_modified:
      newestPublication && newestPublication > cohort.last_modified ? newestPublication : cohort.last_modified,
  };
}
