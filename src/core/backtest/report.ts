import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { BacktestReport, BacktestResult } from '../../schemas/backtest.js';
import { deriveAsync } from '../../snapshot/derive-async.js';
import type { PeriodInfo, Snapshot } from '../../snapshot/snapshot.js';
import { OUTCOMES_FILE, parseOutcomes, readOutcomes, type Outcomes } from './outcomes.js';
import {
  BACKTEST_RESULT_FILE,
  LIMITS,
  METHOD_DOCUMENT,
  parseBacktestResult,
  readBacktestResult,
  resultSummary,
} from './run.js';

/**
 * What every surface says about the backtest: the published result with its one-sentence summary, or, until one
 * exists, that none has been run on this data and why. No figure is ever shown without a computed result behind it.
 */

const NOT_RUN = 'No backtest has been run on this data yet';

/** What the served data holds that bears on a backtest. */
export interface ServedData {
  periods: readonly Pick<PeriodInfo, 'slug' | 'dataset'>[];
  synthetic: boolean;
}

/** Why no result exists, from what the outcomes file and the served data hold. */
export function notRunReasons(outcomes: Outcomes, served: ServedData | undefined): string[] {
  const reasons = [
    'no result has been computed (the command signal-service backtest writes one to data/backtest/result.json, which the server publishes)',
  ];
  const events = outcomes.startups.reduce((n, s) => n + s.events.length, 0);
  reasons.push(
    outcomes.startups.length === 0
      ? 'no startup has been searched for funding rounds or acquisitions yet: data/outcomes.yaml holds no entry, so there is nothing to test the signal against'
      : `data/outcomes.yaml records the search of ${outcomes.startups.length} startups and ${events} rounds or acquisitions`,
  );
  if (served?.synthetic)
    reasons.push(
      'the data served is the synthetic demo dataset: its startups are fictional and have no real rounds to test against',
    );
  else if (served)
    reasons.push(
      `${served.periods.length} weekly periods are stored (${served.periods[0]?.slug ?? '—'} to ${served.periods.at(-1)?.slug ?? '—'}); the test needs weeks that lie at least 13 weeks before the outcomes were searched`,
    );
  return reasons;
}

/** The report of a result, or of its absence (docs/backtest.md, "The result"). */
export function buildBacktestReport(
  result: BacktestResult | undefined,
  outcomes: Outcomes,
  served: ServedData | undefined,
): BacktestReport {
  if (!result) {
    const reasons = notRunReasons(outcomes, served);
    return {
      status: 'not-run',
      synthetic: served?.synthetic ?? false,
      summary: `${NOT_RUN}: ${reasons.join('; ')}.`,
      reasons,
      method: { document: METHOD_DOCUMENT },
      limits: LIMITS,
    };
  }
  const servedDatasets = new Set(served?.periods.map((p) => p.dataset) ?? []);
  const other =
    served && result.coverage.history.datasets.some((d) => !servedDatasets.has(d))
      ? ` It was computed on ${result.coverage.history.source}, not on the data served now.`
      : '';
  return {
    status: 'computed',
    ...result,
    synthetic: result.coverage.history.synthetic,
    summary: `${resultSummary(result)}${other}`,
  };
}

/** The published report as of a snapshot: the result and outcomes files read once per period. */
export const backtestReport = deriveAsync(async (snapshot: Snapshot): Promise<BacktestReport> => {
  const [result, outcomes] = await Promise.all([readBacktestResult(), readOutcomes()]);
  return buildBacktestReport(result, outcomes, {
    periods: snapshot.periods,
    synthetic: snapshot.synthetic,
  });
});

/**
 * The report's summary without a period (the FAQ's text is written once at start): the published result's, or why
 * there is none. A fresh install serves the demo dataset, which the reasons name as such.
 */
export function backtestStatusSentence(): string {
  let result: BacktestResult | undefined;
  try {
    result = parseBacktestResult(readFileSync(BACKTEST_RESULT_FILE, 'utf8'), BACKTEST_RESULT_FILE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const outcomes = parseOutcomes(parseYaml(readFileSync(OUTCOMES_FILE, 'utf8')), OUTCOMES_FILE);
  const report = buildBacktestReport(result, outcomes, undefined);
  return report.status === 'computed'
    ? report.summary
    : `${report.summary.slice(0, -1)}; and the demo dataset a fresh install serves is of fictional startups, with no real rounds.`;
}
