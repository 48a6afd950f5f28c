import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OUTCOMES_FILE, parseOutcomes } from '../../src/core/backtest/outcomes.js';
import { buildBacktestReport } from '../../src/core/backtest/report.js';
import { runBacktest } from '../../src/core/backtest/run.js';
import type { BacktestWeek } from '../../src/core/backtest/engine.js';
import { backtestPage } from '../../src/web/pages/backtest.js';

/** Forty startups over four weeks; the four ranked first announce a round a month after the last week. */
function report(dataset: string) {
  const weeks: BacktestWeek[] = [0, 1, 2, 3].map((w) => ({
    slug: `2025-w0${w + 2}`,
    endsOn: new Date(Date.UTC(2025, 0, 12 + 7 * w)).toISOString().slice(0, 10),
    rows: Array.from({ length: 40 }, (_, i) => ({
      login: `s${i}`,
      composite: 100 - i,
      commits: 10,
      contributors: 2,
      signalType: 'Framework migration' as const,
      signalStrength: 'weak' as const,
      typeScores: undefined,
    })),
  }));
  const startups = Array.from({ length: 40 }, (_, i) => ({
    login: `s${i}`,
    searchedOn: '2026-11-01',
    searched: ['q'],
    result: i < 4 || i === 30 ? 'found' : 'none-found',
    events:
      i < 4 || i === 30
        ? [
            {
              announced: '2025-03-05',
              kind: 'Seed',
              amount: null,
              source: 'https://example.com/seed',
              publisher: 'Example',
              sourceKind: 'company',
            },
          ]
        : [],
  }));
  const outcomes = parseOutcomes({ startups }, OUTCOMES_FILE);
  const result = runBacktest({ weeks, datasets: [dataset], datasetNames: ['x'] }, outcomes, {
    ks: [10, 20],
    horizonsWeeks: [13],
    seed: 3,
    replicates: 100,
  });
  return buildBacktestReport(result, outcomes, undefined);
}

describe('the backtest page', () => {
  test('a computed result is drawn as a lift chart with its confidence band and the line of no lift', () => {
    const page = String(backtestPage(report('github')).body);
    assert.match(page, /<path class="band" d="M/);
    assert.match(page, /class="baseline"/);
  });

  test('a computed result lists every figure in a table', () => {
    const input = report('github');
    const rows = String(backtestPage(input).body).match(/<th scope="row">/g) ?? [];
    assert.equal(
      input.status === 'computed' && rows.length,
      input.status === 'computed' && input.spans[0]!.figures.length,
    );
  });

  test('a result of synthetic data says its figures are of synthetic demo data', () => {
    const input = backtestPage(report('synthetic-demo'));
    assert.equal(input.synthetic, true);
    assert.match(String(input.body), /These figures are of synthetic demo data/);
  });
});
