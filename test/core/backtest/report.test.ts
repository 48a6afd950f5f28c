import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backtestStatusSentence, buildBacktestReport } from '../../../src/core/backtest/report.js';
import { OUTCOMES_FILE, parseOutcomes } from '../../../src/core/backtest/outcomes.js';
import { BACKTEST_RESULT_FILE, parseBacktestResult, runBacktest } from '../../../src/core/backtest/run.js';
import type { BacktestWeek } from '../../../src/core/backtest/engine.js';

const none = parseOutcomes({ startups: [] }, OUTCOMES_FILE);
const demo = { periods: [{ slug: '2026-w47', dataset: 'synthetic-demo' }], synthetic: true };

/** Two startups over one week; the first, ranked higher, announces a round a month later. */
function smallResult(dataset: string) {
  const week: BacktestWeek = {
    slug: '2025-w02',
    endsOn: '2025-01-12',
    rows: ['a', 'b'].map((login, i) => ({
      login,
      composite: 90 - i * 50,
      commits: 10,
      contributors: 2,
      signalType: 'Framework migration' as const,
      signalStrength: 'weak' as const,
      typeScores: undefined,
    })),
  };
  const outcomes = parseOutcomes(
    {
      startups: [
        {
          login: 'a',
          searchedOn: '2026-11-01',
          searched: ['q'],
          result: 'found',
          events: [
            {
              announced: '2025-02-10',
              kind: 'Seed',
              amount: null,
              source: 'https://a.example/seed',
              publisher: 'A',
              sourceKind: 'company',
            },
          ],
        },
        { login: 'b', searchedOn: '2026-11-01', searched: ['q'], result: 'none-found' },
      ],
    },
    OUTCOMES_FILE,
  );
  const history = { weeks: [week], datasets: [dataset], datasetNames: ['x'] };
  return runBacktest(history, outcomes, { ks: [20], horizonsWeeks: [26], seed: 1, replicates: 50 });
}

describe('the backtest report', () => {
  test('without a result it says no backtest has been run, and carries no figure', () => {
    const report = buildBacktestReport(undefined, none, demo);
    assert.equal(report.status, 'not-run');
    assert.match(report.summary, /^No backtest has been run on this data yet/);
    assert.equal('spans' in report, false);
  });

  test('without a result it gives the empty outcomes file as a reason', () => {
    const report = buildBacktestReport(undefined, none, demo);
    assert.ok(report.status === 'not-run' && report.reasons.some((r) => /data\/outcomes\.yaml holds no entry/.test(r)));
  });

  test('without a result on the demo data it names the data as synthetic', () => {
    const report = buildBacktestReport(undefined, none, demo);
    assert.ok(report.status === 'not-run' && report.reasons.some((r) => /synthetic demo dataset/.test(r)));
  });

  test('a result of synthetic data says its figures are of synthetic data', () => {
    const report = buildBacktestReport(smallResult('synthetic-demo'), none, demo);
    assert.equal(report.synthetic, true);
    assert.match(report.summary, /synthetic demo data/);
  });

  test('a result computed on other data than the data served says so', () => {
    const report = buildBacktestReport(smallResult('github'), none, demo);
    assert.match(report.summary, /not on the data served now/);
  });

  test('a result whose interval holds 1 is reported as no evidence of lift, with its figures', () => {
    // The top 20 of two startups is both of them: the share is the base rate.
    const report = buildBacktestReport(smallResult('github'), none, undefined);
    assert.equal(report.status, 'computed');
    assert.match(report.summary, /lift 1\.00×, 95% interval 1\.00×–1\.00×; no evidence of lift/);
  });

  test('the FAQ sentence with the shipped files says no backtest has been run yet, and why', () => {
    assert.match(
      backtestStatusSentence(),
      /^No backtest has been run on this data yet: .*outcomes\.yaml holds no entry/,
    );
  });

  test('a result file that breaks the schema is refused, naming the file and the field', () => {
    assert.throws(
      () =>
        parseBacktestResult(
          JSON.stringify({ ...smallResult('github'), computedAt: 'yesterday' }),
          BACKTEST_RESULT_FILE,
        ),
      /data\/backtest\/result\.json: computedAt/,
    );
  });
});
