import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { addDays } from '../../domain/periods.js';
import { SIGNAL_TYPES, type SignalStrength, type SignalType } from '../../schemas/enums.js';
import type { BacktestFigure, BacktestSpan } from '../../schemas/backtest.js';
import { ACQUISITION, type OutcomeStartup } from './outcomes.js';

/**
 * The backtest of docs/backtest.md as pure functions over stored weeks and the outcomes file: for each week, only
 * that week's records and the outcomes announced after its end are read, and every figure is pooled over weeks.
 */

/** One startup's stored record in one week: what was visible at the week's end. */
export interface BacktestRow {
  login: string;
  composite: number;
  commits: number;
  contributors: number;
  signalType: SignalType;
  signalStrength: SignalStrength;
  /** Each type's evidence score as the week's rule stored it; undefined for a rule that stored none. */
  typeScores: Partial<Record<SignalType, number>> | undefined;
}

export interface BacktestWeek {
  slug: string;
  /** The week's last day (its Sunday, UTC), YYYY-MM-DD. */
  endsOn: string;
  rows: readonly BacktestRow[];
}

export interface BacktestOptions {
  ks: readonly number[];
  horizonsWeeks: readonly number[];
  seed: number;
  replicates: number;
  /** Weeks before this slug form the earlier span and the rest the later one; absent: one span. */
  holdoutFrom?: string | undefined;
}

export const DEFAULT_KS = [10, 20, 50] as const;
export const DEFAULT_HORIZONS = [13, 26] as const;
export const DEFAULT_SEED = 57;
export const DEFAULT_REPLICATES = 2000;
export const PRIMARY = { selection: 'composite', k: 20, horizonWeeks: 26 } as const;
/** Lead-time bands in weeks, as docs/backtest.md states them. */
export const LEAD_BANDS = [
  [1, 4],
  [5, 8],
  [9, 13],
  [14, 26],
] as const;

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/** How a selection orders a week's universe; a group takes its members whatever their number. */
interface Selection {
  name: string;
  role: BacktestFigure['role'];
  group: boolean;
  /** The universe's rows in selection order (for a group, its members only). */
  order(rows: readonly BacktestRow[], week: number): number[];
}

/** Descending by `key`, then by composite, then by login: the order is reproducible. */
function rankedBy(key: (row: BacktestRow) => number) {
  return (rows: readonly BacktestRow[]) =>
    rows
      .map((_, i) => i)
      .sort(
        (a, b) =>
          key(rows[b]!) - key(rows[a]!) ||
          rows[b]!.composite - rows[a]!.composite ||
          (rows[a]!.login < rows[b]!.login ? -1 : rows[a]!.login > rows[b]!.login ? 1 : 0),
      );
}

/** A type's evidence score; a record of a rule that stored none scores by its label (docs/backtest.md). */
export function typeScore(row: BacktestRow, type: SignalType): number {
  const stored = row.typeScores?.[type];
  if (stored !== undefined) return stored;
  if (row.signalType !== type) return 0;
  return row.signalStrength === 'strong' ? 1 : row.signalStrength === 'weak' ? 0.5 : 0;
}

function selections(seed: number): Selection[] {
  const ranking = (name: string, role: Selection['role'], key: (row: BacktestRow) => number): Selection => ({
    name,
    role,
    group: false,
    order: rankedBy(key),
  });
  return [
    ranking('composite', 'signal', (r) => r.composite),
    ...SIGNAL_TYPES.map((type) => ranking(type, 'signal-type', (r) => typeScore(r, type))),
    ...SIGNAL_TYPES.map((type): Selection => ({
      name: `group: ${type}`,
      role: 'group',
      group: true,
      order: (rows) =>
        rankedBy((r) => r.composite)(rows).filter(
          (i) => rows[i]!.signalType === type && rows[i]!.signalStrength !== 'none',
        ),
    })),
    ranking('commits', 'control', (r) => r.commits),
    ranking('contributors', 'control', (r) => r.contributors),
    {
      name: 'random',
      role: 'control',
      group: false,
      // A fresh shuffle each week, from a generator of its own so the bootstrap's draws do not move it.
      order: (rows, week) => {
        const rng = xoroshiro128plus((seed ^ Math.imul(week + 1, 0x9e3779b1)) >>> 0);
        const order = rankedBy(() => 0)(rows);
        for (let i = order.length - 1; i > 0; i--) {
          const j = uniformInt(rng, 0, i);
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
        return order;
      },
    },
  ];
}

/** One week at one horizon: its universe (as startup ids), who announced inside the window, each selection's order. */
interface TestedWeek {
  week: BacktestWeek;
  ids: number[];
  positive: Uint8Array;
  orders: number[][];
}

interface Prepared {
  startups: string[];
  weeks: TestedWeek[];
  /** Per startup id, its events' days. */
  eventDays: string[][];
}

/** The universe of a week at a horizon (docs/backtest.md, "The test, week by week", 1). */
function inUniverse(entry: OutcomeStartup | undefined, endsOn: string, windowEnd: string): boolean {
  if (!entry || entry.result === 'ambiguous' || entry.searchedOn < windowEnd) return false;
  return !entry.events.some((e) => e.kind === ACQUISITION && e.announced <= endsOn);
}

function prepare(
  weeks: readonly BacktestWeek[],
  outcomes: ReadonlyMap<string, OutcomeStartup>,
  horizon: number,
  chosen: readonly Selection[],
  weekIndex: (w: BacktestWeek) => number,
): Prepared {
  const ids = new Map<string, number>();
  const startups: string[] = [];
  const eventDays: string[][] = [];
  const tested: TestedWeek[] = [];
  for (const week of weeks) {
    const windowEnd = addDays(week.endsOn, 7 * horizon);
    const rows = week.rows.filter((r) => inUniverse(outcomes.get(r.login.toLowerCase()), week.endsOn, windowEnd));
    if (rows.length === 0) continue;
    const positive = new Uint8Array(rows.length);
    const weekIds = rows.map((row, i) => {
      const login = row.login.toLowerCase();
      const entry = outcomes.get(login)!;
      // Only what is announced after the week's end, up to the horizon's last day, follows the week.
      positive[i] = entry.events.some((e) => e.announced > week.endsOn && e.announced <= windowEnd) ? 1 : 0;
      let id = ids.get(login);
      if (id === undefined) {
        id = startups.length;
        ids.set(login, id);
        startups.push(login);
        eventDays.push(entry.events.map((e) => e.announced));
      }
      return id;
    });
    tested.push({ week, ids: weekIds, positive, orders: chosen.map((s) => s.order(rows, weekIndex(week))) });
  }
  return { startups, weeks: tested, eventDays };
}

interface Tally {
  selected: number;
  hits: number;
  universe: number;
  positives: number;
}

/** Each week's universe and positives, each startup counted `weight[id]` times (once without a draw). */
function weekTotals(prepared: Prepared, weight?: Uint32Array): { universe: Float64Array; positives: Float64Array } {
  const universe = new Float64Array(prepared.weeks.length);
  const positives = new Float64Array(prepared.weeks.length);
  prepared.weeks.forEach((w, j) => {
    for (let i = 0; i < w.ids.length; i++) {
      const m = weight ? weight[w.ids[i]!]! : 1;
      universe[j]! += m;
      positives[j]! += m * w.positive[i]!;
    }
  });
  return { universe, positives };
}

/** The pooled tally of one selection over the weeks (the week totals computed once per draw, for every selection). */
function tally(
  prepared: Prepared,
  totals: ReturnType<typeof weekTotals>,
  s: number,
  cap: number,
  weight?: Uint32Array,
): Tally {
  const t: Tally = { selected: 0, hits: 0, universe: 0, positives: 0 };
  prepared.weeks.forEach((w, j) => {
    if (totals.universe[j] === 0) return;
    let taken = 0;
    for (const i of w.orders[s]!) {
      if (taken >= cap) break;
      const m = Math.min(weight ? weight[w.ids[i]!]! : 1, cap - taken);
      taken += m;
      t.hits += m * w.positive[i]!;
    }
    t.selected += taken;
    t.universe += totals.universe[j]!;
    t.positives += totals.positives[j]!;
  });
  return t;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);
const liftOf = (t: Tally) => {
  const share = ratio(t.hits, t.selected);
  const base = ratio(t.positives, t.universe);
  return share === null || base === null || base === 0 ? null : share / base;
};

/** The q-th quantile (0–1) of sorted values, by linear interpolation between order statistics. */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The 95% percentile interval of the defined replicates; open when fewer than half defined the figure. */
function interval(values: number[], replicates: number): { low: number | null; high: number | null } {
  if (replicates === 0 || values.length < replicates / 2) return { low: null, high: null };
  values.sort((a, b) => a - b);
  return { low: quantile(values, 0.025), high: quantile(values, 0.975) };
}

/**
 * Each event judged once: flagged when its startup was selected in a week whose window holds it, with the lead
 * time from the earliest such week's end (docs/backtest.md, "Lead times").
 */
function leadTimes(prepared: Prepared, s: number, cap: number, horizon: number): BacktestFigure['leadTimes'] {
  const judged = new Set<string>();
  const earliest = new Map<string, string>();
  for (const w of prepared.weeks) {
    const windowEnd = addDays(w.week.endsOn, 7 * horizon);
    const selected = new Set(w.orders[s]!.slice(0, cap).map((i) => w.ids[i]!));
    for (const id of w.ids) {
      for (const day of prepared.eventDays[id]!) {
        if (day <= w.week.endsOn || day > windowEnd) continue;
        const key = `${id} ${day}`;
        judged.add(key);
        if (selected.has(id) && !earliest.has(key)) earliest.set(key, w.week.endsOn);
      }
    }
  }
  const leads = [...earliest].map(([key, endsOn]) => daysBetween(endsOn, key.slice(key.indexOf(' ') + 1)));
  leads.sort((a, b) => a - b);
  return {
    events: judged.size,
    flagged: leads.length,
    quartilesDays: leads.length ? [quantile(leads, 0.25), quantile(leads, 0.5), quantile(leads, 0.75)] : null,
    bands: LEAD_BANDS.map(([fromWeeks, toWeeks]) => ({
      fromWeeks,
      toWeeks,
      count: leads.filter((d) => d > (fromWeeks - 1) * 7 && d <= toWeeks * 7).length,
    })),
  };
}

/** One bootstrap replicate's multiplicities: as many startups drawn with replacement as there are. */
function draw(rng: ReturnType<typeof xoroshiro128plus>, n: number): Uint32Array {
  const weight = new Uint32Array(n);
  for (let i = 0; i < n; i++) weight[uniformInt(rng, 0, n - 1)]!++;
  return weight;
}

/** Every figure of one span of weeks (docs/backtest.md, "The figures"). */
export function spanFigures(
  weeks: readonly BacktestWeek[],
  outcomes: ReadonlyMap<string, OutcomeStartup>,
  options: BacktestOptions,
  weekIndex: (w: BacktestWeek) => number = (w) => weeks.indexOf(w),
): { figures: BacktestFigure[]; tested: Set<string> } {
  const chosen = selections(options.seed);
  const figures: BacktestFigure[] = [];
  const tested = new Set<string>();
  for (const horizon of options.horizonsWeeks) {
    const prepared = prepare(weeks, outcomes, horizon, chosen, weekIndex);
    for (const login of prepared.startups) tested.add(login);
    const cells = chosen.flatMap((selection, s) =>
      (selection.group ? [null] : options.ks).map((k) => ({ selection, s, k, cap: k ?? Infinity })),
    );
    const shares = cells.map((): number[] => []);
    const lifts = cells.map((): number[] => []);
    // One generator per horizon, seeded alike, so every horizon's replicates draw the same startups.
    const rng = xoroshiro128plus(options.seed >>> 0);
    for (let r = 0; r < options.replicates; r++) {
      const weight = draw(rng, prepared.startups.length);
      const totals = weekTotals(prepared, weight);
      cells.forEach((cell, c) => {
        const t = tally(prepared, totals, cell.s, cell.cap, weight);
        const share = ratio(t.hits, t.selected);
        const lift = liftOf(t);
        if (share !== null) shares[c]!.push(share);
        if (lift !== null) lifts[c]!.push(lift);
      });
    }
    const totals = weekTotals(prepared);
    cells.forEach((cell, c) => {
      const t = tally(prepared, totals, cell.s, cell.cap);
      figures.push({
        selection: cell.selection.name,
        role: cell.selection.role,
        k: cell.k,
        horizonWeeks: horizon,
        weeks: prepared.weeks.length,
        selected: t.selected,
        hits: t.hits,
        share: ratio(t.hits, t.selected),
        baseRate: ratio(t.positives, t.universe),
        lift: liftOf(t),
        shareInterval: interval(shares[c]!, options.replicates),
        liftInterval: interval(lifts[c]!, options.replicates),
        leadTimes: leadTimes(prepared, cell.s, cell.cap, horizon),
      });
    });
  }
  return { figures, tested };
}

/** The spans a run reports: every week, and with a holdout week the earlier and later spans apart. */
export function backtestSpans(
  weeks: readonly BacktestWeek[],
  outcomes: ReadonlyMap<string, OutcomeStartup>,
  options: BacktestOptions,
): { spans: BacktestSpan[]; tested: Set<string> } {
  // The random ranking's shuffle is keyed on the week's place in the whole history, so a span sees the same order.
  const index = new Map(weeks.map((w, i) => [w, i]));
  const weekIndex = (w: BacktestWeek) => index.get(w)!;
  const span = (name: BacktestSpan['name'], chosen: readonly BacktestWeek[]) => {
    const { figures, tested } = spanFigures(chosen, outcomes, options, weekIndex);
    return {
      span: { name, fromWeek: chosen[0]?.slug ?? null, toWeek: chosen.at(-1)?.slug ?? null, figures },
      tested,
    };
  };
  const all = span('all', weeks);
  const spans = [all.span];
  if (options.holdoutFrom !== undefined) {
    const from = weeks.findIndex((w) => w.slug >= options.holdoutFrom!);
    const cut = from === -1 ? weeks.length : from;
    spans.push(span('earlier', weeks.slice(0, cut)).span, span('later', weeks.slice(cut)).span);
  }
  return { spans, tested: all.tested };
}
