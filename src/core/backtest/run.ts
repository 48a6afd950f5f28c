import { readFile } from 'node:fs/promises';
import { isSyntheticDataset } from '../../domain/datasets.js';
import { BacktestResult, type BacktestCoverage, type BacktestFigure } from '../../schemas/backtest.js';
import { ContentError, repoPath } from '../answers/content-files.js';
import { backtestSpans, PRIMARY, type BacktestOptions } from './engine.js';
import type { BacktestHistory } from './history.js';
import type { Outcomes } from './outcomes.js';

/** Where the command writes its result by default, and where the server reads the published one. */
export const BACKTEST_RESULT_FILE = repoPath('data', 'backtest', 'result.json');
export const METHOD_DOCUMENT = 'docs/backtest.md';
export const BOOTSTRAP =
  'startups resampled with replacement (every week of a drawn startup kept), percentile interval; weeks overlap, so they are not resampled';

/** The limits every result states (docs/backtest.md, "Coverage and limits"). */
export const LIMITS = [
  'Git-only history: periods rebuilt from git clones see commits, authors, merges and tags, not GitHub releases, deployments, topics or unlisted repositories.',
  'Startups whose rounds are not found count as having none: a missed round lowers the base rate and counts against a startup ranked high.',
  'Survivorship: the watchlist was curated in 2026 from startups that still exist, are independent and work in public; those that died or were acquired earlier are missing.',
  'US-centric filings: SEC Form D covers US companies; elsewhere only announcements are found, so rounds outside the US are more likely missed.',
  'Not a causal claim: a lift says the ranking came before funding more often than chance, not that activity causes funding.',
];

/** What built the weekly records, from the datasets the weeks come from. */
export function historySource(datasets: readonly string[]): string {
  if (datasets.length === 0) return 'no stored weeks';
  return datasets
    .map((d) =>
      isSyntheticDataset(d)
        ? 'the synthetic demo generator (fictional startups; no real rounds)'
        : `the weekly pipeline's records of real GitHub activity (dataset ${d})`,
    )
    .join('; ');
}

function coverage(history: BacktestHistory, outcomes: Outcomes, tested: Set<string>): BacktestCoverage {
  const inHistory = new Set(history.weeks.flatMap((w) => w.rows.map((r) => r.login.toLowerCase())));
  const count = (result: string) => outcomes.startups.filter((s) => s.result === result).length;
  return {
    history: {
      firstWeek: history.weeks[0]?.slug ?? null,
      lastWeek: history.weeks.at(-1)?.slug ?? null,
      weeks: history.weeks.length,
      startups: inHistory.size,
      datasets: history.datasets,
      datasetNames: history.datasetNames,
      synthetic: history.datasets.some(isSyntheticDataset),
      source: historySource(history.datasets),
    },
    outcomes: {
      searched: outcomes.startups.length,
      found: count('found'),
      noneFound: count('none-found'),
      ambiguous: count('ambiguous'),
      notSearched: [...inHistory].filter((login) => !outcomes.byLogin.has(login)).length,
      events: outcomes.startups.reduce((n, s) => n + s.events.length, 0),
      tested: tested.size,
    },
  };
}

/** The backtest of docs/backtest.md over a stored history and the outcomes file. */
export function runBacktest(
  history: BacktestHistory,
  outcomes: Outcomes,
  options: BacktestOptions,
  now = new Date(),
): BacktestResult {
  const { spans, tested } = backtestSpans(history.weeks, outcomes.byLogin, options);
  return {
    computedAt: now.toISOString(),
    method: {
      document: METHOD_DOCUMENT,
      horizonsWeeks: [...options.horizonsWeeks],
      ks: [...options.ks],
      primary: { ...PRIMARY },
      bootstrap: BOOTSTRAP,
      replicates: options.replicates,
      seed: options.seed,
      confidence: 0.95,
      holdoutFrom: options.holdoutFrom ?? null,
    },
    coverage: coverage(history, outcomes, tested),
    spans,
    limits: LIMITS,
  };
}

/** The primary figure of a result's whole span (docs/backtest.md, "The primary figure"), when it was computed. */
export function primaryFigure(result: BacktestResult): BacktestFigure | undefined {
  const { selection, k, horizonWeeks } = result.method.primary;
  return result.spans
    .find((s) => s.name === 'all')
    ?.figures.find((f) => f.selection === selection && f.k === k && f.horizonWeeks === horizonWeeks);
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const times = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)}×`);

/** One sentence on what the result shows, the same on every surface; a lift whose interval holds 1 is no lift. */
export function resultSummary(result: BacktestResult): string {
  const data = result.coverage.history.synthetic
    ? ' These figures are of synthetic demo data, with no real rounds behind them.'
    : '';
  const f = primaryFigure(result);
  const span = `${result.coverage.history.firstWeek ?? '?'} to ${result.coverage.history.lastWeek ?? '?'}`;
  if (!f || f.weeks === 0)
    return `The backtest over ${span} had no week to test (no searched startup with a known outcome window).${data}`;
  const head = `Top ${f.k} by composite score, next ${f.horizonWeeks} weeks, ${f.weeks} weeks tested (${span}):`;
  if (f.lift === null || f.share === null || f.baseRate === null)
    return `${head} no round or acquisition was announced by any tested startup, so no lift can be measured.${data}`;
  const { low, high } = f.liftInterval;
  const ci = low === null || high === null ? 'interval not defined' : `95% interval ${times(low)}–${times(high)}`;
  const verdict =
    low === null || high === null
      ? 'too few events to tell'
      : low > 1
        ? 'a lift above chance'
        : high < 1
          ? 'fewer rounds than the base rate: no lift'
          : 'no evidence of lift (the interval includes 1)';
  return `${head} ${pct(f.share)} announced a round or acquisition against a base rate of ${pct(f.baseRate)}: lift ${times(f.lift)}, ${ci}; ${verdict}.${data}`;
}

/** A result document written by the command, checked against the schema; a problem names the file and field. */
export function parseBacktestResult(text: string, file: string): BacktestResult {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (err) {
    throw new ContentError(file, `not readable JSON (${(err as Error).message})`);
  }
  const parsed = BacktestResult.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContentError(file, `${issue.path.join('.') || 'document'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The result file written by the command, checked; undefined when there is none. */
export async function readBacktestResult(file = BACKTEST_RESULT_FILE): Promise<BacktestResult | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return parseBacktestResult(text, file);
}
