import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  backtestSpans,
  spanFigures,
  typeScore,
  type BacktestOptions,
  type BacktestRow,
  type BacktestWeek,
} from '../../../src/core/backtest/engine.js';
import type { OutcomeEvent, OutcomeStartup } from '../../../src/core/backtest/outcomes.js';
import type { BacktestFigure } from '../../../src/schemas/backtest.js';

/** Sundays a week apart from 2025-01-05: the end days of consecutive ISO weeks. */
const sunday = (i: number) => new Date(Date.UTC(2025, 0, 5 + 7 * i)).toISOString().slice(0, 10);
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const login = (i: number) => `s${String(i).padStart(3, '0')}`;

function row(i: number, composite: number, extra: Partial<BacktestRow> = {}): BacktestRow {
  return {
    login: login(i),
    composite,
    commits: 100 - i,
    contributors: 5,
    signalType: 'Engineering hiring burst',
    signalStrength: 'none',
    typeScores: undefined,
    ...extra,
  };
}

/** `n` startups per week; startup i scores 100 − i unless `score` says otherwise for that week. */
function history(weeks: number, n: number, score = (_week: number, i: number) => 100 - i): BacktestWeek[] {
  return Array.from({ length: weeks }, (_, w) => ({
    slug: `2025-w${String(w + 1).padStart(2, '0')}`,
    endsOn: sunday(w),
    rows: Array.from({ length: n }, (_, i) => row(i, score(w, i))),
  }));
}

/** Every startup searched after all windows closed; `events` maps a startup to its announcement days. */
function outcomes(n: number, events: Record<number, string[]>, acquisitions: Record<number, string> = {}) {
  const map = new Map<string, OutcomeStartup>();
  for (let i = 0; i < n; i++) {
    const days = events[i] ?? [];
    const list = days.map((announced, j): OutcomeEvent => ({
      announced,
      kind: `Series ${'ABCDEFG'[j]}`,
      amount: null,
      source: 'https://example.com/a',
      publisher: 'Example',
      sourceKind: 'company',
    }));
    if (acquisitions[i])
      list.push({
        announced: acquisitions[i]!,
        kind: 'acquisition',
        amount: null,
        source: 'https://example.com/acquired',
        publisher: 'Acquirer',
        sourceKind: 'acquirer',
      });
    map.set(login(i), {
      login: login(i),
      searchedOn: '2026-11-30',
      searched: ['test'],
      result: list.length ? 'found' : 'none-found',
      events: list,
    });
  }
  return map;
}

const OPTIONS: BacktestOptions = { ks: [10], horizonsWeeks: [13], seed: 7, replicates: 200 };

const figure = (figures: BacktestFigure[], selection: string, k: number | null = 10, horizon = 13) =>
  figures.find((f) => f.selection === selection && f.k === k && f.horizonWeeks === horizon)!;

describe('the backtest on a generated history with planted outcomes', () => {
  test('the composite ranking recovers a planted lift: half of the top 10 against a tenth of all', () => {
    // Five of the top ten and five of the other ninety announce a month after the only week.
    const events = Object.fromEntries([0, 1, 2, 3, 4, 50, 51, 52, 53, 54].map((i) => [i, [dayAfter(sunday(0), 30)]]));
    const { figures } = spanFigures(history(1, 100), outcomes(100, events), OPTIONS);
    const f = figure(figures, 'composite');
    assert.equal(f.share, 0.5);
    assert.equal(f.baseRate, 0.1);
    assert.equal(f.lift, 5);
  });

  test('the lead time of an event is measured from the earliest week that selected its startup', () => {
    // s000 is in the top ten in weeks 0–3; its round comes 10 days after week 3 ends, 31 days after week 0 ends.
    const weeks = history(4, 30);
    const { figures } = spanFigures(weeks, outcomes(30, { 0: [dayAfter(sunday(3), 10)] }), OPTIONS);
    const lead = figure(figures, 'composite').leadTimes;
    assert.equal(lead.events, 1);
    assert.equal(lead.flagged, 1);
    assert.deepEqual(lead.quartilesDays, [31, 31, 31]);
    assert.deepEqual(
      lead.bands.map((b) => b.count),
      [0, 1, 0, 0],
    );
  });

  test('an event counts once however many weeks selected its startup', () => {
    const { figures } = spanFigures(history(4, 30), outcomes(30, { 0: [dayAfter(sunday(3), 10)] }), OPTIONS);
    const f = figure(figures, 'composite');
    assert.equal(f.hits, 4);
    assert.equal(f.leadTimes.flagged, 1);
  });

  test('an event announced on or before the week ends is never predicted by that week', () => {
    // s000 (first in the week) announced on the week's own Sunday and s001 the day before.
    const events = { 0: [sunday(0)], 1: [dayAfter(sunday(0), -1)], 2: [dayAfter(sunday(0), 1)] };
    const { figures } = spanFigures(history(1, 20), outcomes(20, events), OPTIONS);
    const f = figure(figures, 'composite');
    assert.equal(f.hits, 1);
    assert.equal(f.leadTimes.events, 1);
  });

  test("a later week's score does not leak into an earlier week's ranking", () => {
    // s025 is last in week 0 and first in week 1; its round falls between the two weeks' ends, so no week that
    // ranked it high could have predicted it.
    const weeks = history(2, 26, (w, i) => (i === 25 ? (w === 0 ? 0 : 1000) : 100 - i));
    const { figures } = spanFigures(weeks, outcomes(26, { 25: [dayAfter(sunday(0), 3)] }), OPTIONS);
    const f = figure(figures, 'composite');
    assert.equal(f.hits, 0);
    assert.equal(f.leadTimes.flagged, 0);
    assert.equal(f.leadTimes.events, 1);
  });

  test('an event beyond the horizon is not counted', () => {
    const { figures } = spanFigures(history(1, 20), outcomes(20, { 0: [dayAfter(sunday(0), 92)] }), OPTIONS);
    assert.equal(figure(figures, 'composite').hits, 0);
  });

  test('the horizon ends on its last day inclusive', () => {
    const { figures } = spanFigures(history(1, 20), outcomes(20, { 0: [dayAfter(sunday(0), 91)] }), OPTIONS);
    assert.equal(figure(figures, 'composite').hits, 1);
  });

  test('a startup acquired by the week’s end takes no part in that week', () => {
    const map = outcomes(20, {}, { 0: dayAfter(sunday(0), -10) });
    const { tested } = spanFigures(history(1, 20), map, OPTIONS);
    assert.equal(tested.has(login(0)), false);
    assert.equal(tested.size, 19);
  });

  test('a startup that was not searched, or whose search was ambiguous, takes no part', () => {
    const map = outcomes(20, { 0: [dayAfter(sunday(0), 5)] });
    map.delete(login(0));
    map.set(login(1), { ...map.get(login(1))!, result: 'ambiguous' });
    const { tested } = spanFigures(history(1, 20), map, OPTIONS);
    assert.equal(tested.size, 18);
  });

  test('a window that ends after the search date is not tested', () => {
    const map = outcomes(20, {});
    for (const [key, entry] of map) map.set(key, { ...entry, searchedOn: dayAfter(sunday(0), 90) });
    assert.equal(figure(spanFigures(history(1, 20), map, OPTIONS).figures, 'composite').weeks, 0);
  });

  test('with no event at all the lift is not defined', () => {
    const f = figure(spanFigures(history(2, 20), outcomes(20, {}), OPTIONS).figures, 'composite');
    assert.equal(f.baseRate, 0);
    assert.equal(f.lift, null);
    assert.deepEqual(f.liftInterval, { low: null, high: null });
  });

  test('the size control ranks by commits, not by composite score', () => {
    // Commits fall with the index; composite rises with it, so the two top tens do not meet.
    const weeks = history(1, 40, (_w, i) => i);
    const events = Object.fromEntries([0, 1, 2, 3, 4].map((i) => [i, [dayAfter(sunday(0), 20)]]));
    const { figures } = spanFigures(weeks, outcomes(40, events), OPTIONS);
    assert.equal(figure(figures, 'commits').hits, 5);
    assert.equal(figure(figures, 'composite').hits, 0);
  });

  test("a signal type's ranking follows that type's stored evidence score", () => {
    const weeks = history(1, 30);
    const rows = weeks[0]!.rows as BacktestRow[];
    // The three lowest by composite carry the strongest infrastructure evidence.
    for (const i of [27, 28, 29])
      rows[i] = { ...rows[i]!, typeScores: { ...Object.fromEntries([['Infrastructure buildout', 3]]) } };
    const events = { 27: [dayAfter(sunday(0), 9)], 28: [dayAfter(sunday(0), 9)] };
    const { figures } = spanFigures(weeks, outcomes(30, events), OPTIONS);
    assert.equal(figure(figures, 'Infrastructure buildout').hits, 2);
  });

  test('a record of a rule that stored no type scores scores by its label', () => {
    const legacy = row(0, 50, { signalType: 'Framework migration', signalStrength: 'strong' });
    assert.equal(typeScore(legacy, 'Framework migration'), 1);
    assert.equal(typeScore({ ...legacy, signalStrength: 'weak' }, 'Framework migration'), 0.5);
    assert.equal(typeScore(legacy, 'Deploy frequency spike'), 0);
  });

  test('a group holds the startups labelled with its type, with evidence, whatever their number', () => {
    const weeks = history(1, 30);
    const rows = weeks[0]!.rows as BacktestRow[];
    for (const i of [3, 4, 5]) rows[i] = { ...rows[i]!, signalStrength: 'strong' };
    rows[6] = { ...rows[6]!, signalStrength: 'weak', signalType: 'Framework migration' };
    const { figures } = spanFigures(weeks, outcomes(30, { 4: [dayAfter(sunday(0), 9)] }), OPTIONS);
    const group = figure(figures, 'group: Engineering hiring burst', null);
    assert.equal(group.selected, 3);
    assert.equal(group.hits, 1);
  });
});

describe('the bootstrap', () => {
  const events = Object.fromEntries([0, 1, 2, 3, 4, 5, 50, 51, 60, 70, 80].map((i) => [i, [dayAfter(sunday(3), 14)]]));
  const run = (seed: number) =>
    figure(spanFigures(history(6, 100), outcomes(100, events), { ...OPTIONS, seed }).figures, 'composite');

  test('the same seed gives the same intervals', () => {
    assert.deepEqual(run(11).liftInterval, run(11).liftInterval);
  });

  test('another seed gives other intervals', () => {
    assert.notDeepEqual(run(11).liftInterval, run(12).liftInterval);
  });

  test("the lift's interval holds the point estimate", () => {
    const f = run(11);
    assert.ok(f.liftInterval.low! <= f.lift! && f.lift! <= f.liftInterval.high!, JSON.stringify(f));
  });
});

describe('the random control', () => {
  test('one seed gives the same random figures, another seed other ones', () => {
    const events = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [i * 3, [dayAfter(sunday(0), 9)]]));
    const hits = (seed: number) =>
      figure(spanFigures(history(1, 90), outcomes(90, events), { ...OPTIONS, seed, replicates: 0 }).figures, 'random')
        .hits;
    assert.equal(hits(3), hits(3));
    assert.notEqual([1, 2, 3, 4, 5].map(hits).join(), [1, 1, 1, 1, 1].map(hits).join());
  });

  test('over many weeks its lift stays near 1', () => {
    // Every fifth startup announces in each week's window: any ranking that ignores who they are finds a fifth.
    const weeks = history(40, 100);
    const events: Record<number, string[]> = {};
    for (let i = 0; i < 100; i += 5) events[i] = weeks.map((w) => dayAfter(w.endsOn, 3));
    const f = figure(
      spanFigures(weeks, outcomes(100, events), { ...OPTIONS, ks: [50], replicates: 0 }).figures,
      'random',
      50,
    );
    assert.ok(Math.abs(f.lift! - 1) < 0.15, String(f.lift));
  });
});

describe('spans', () => {
  test('a holdout week reports the earlier and later spans apart, beside the whole', () => {
    const weeks = history(6, 20);
    const { spans } = backtestSpans(weeks, outcomes(20, {}), { ...OPTIONS, holdoutFrom: '2025-w04' });
    assert.deepEqual(
      spans.map((s) => [s.name, s.fromWeek, s.toWeek]),
      [
        ['all', '2025-w01', '2025-w06'],
        ['earlier', '2025-w01', '2025-w03'],
        ['later', '2025-w04', '2025-w06'],
      ],
    );
  });
});
