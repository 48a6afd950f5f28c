import fs from 'node:fs/promises';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { withMigratedStore } from '../app.js';
import { loadConfig } from '../config.js';
import { parsePeriodSlug } from '../domain/periods.js';
import { DEFAULT_HORIZONS, DEFAULT_KS, DEFAULT_REPLICATES, DEFAULT_SEED } from '../core/backtest/engine.js';
import { loadBacktestHistory } from '../core/backtest/history.js';
import { OUTCOMES_FILE, readOutcomes } from '../core/backtest/outcomes.js';
import { BACKTEST_RESULT_FILE, resultSummary, runBacktest } from '../core/backtest/run.js';
import type { BacktestFigure, BacktestResult } from '../schemas/backtest.js';

/**
 * `signal-service backtest`: the backtest of docs/backtest.md over the stored weeks and the outcomes file. The
 * summary goes to stdout, the JSON result to `--output` (the file the server publishes by default).
 */

const out = (line = '') => process.stdout.write(`${line}\n`);

function positiveInts(value: string): number[] {
  const list = value.split(',').map((v) => Number(v.trim()));
  if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 1))
    throw new InvalidArgumentError('a comma-separated list of positive integers, such as 10,20,50');
  return [...new Set(list)].sort((a, b) => a - b);
}

function integer(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`an integer of at least ${min}`);
    return n;
  };
}

function weekSlug(value: string): string {
  try {
    return parsePeriodSlug(value).slug;
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

const num = (v: number | null, digits = 2) => (v === null ? '—' : v.toFixed(digits));
const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

function figureLine(f: BacktestFigure): string {
  const ci = `[${num(f.liftInterval.low)}, ${num(f.liftInterval.high)}]`;
  const lead = f.leadTimes.quartilesDays ? `${f.leadTimes.quartilesDays[1]} d` : '—';
  return [
    f.selection.padEnd(36),
    String(f.k ?? 'all').padStart(4),
    `${f.horizonWeeks} w`.padStart(5),
    `${f.hits}/${f.selected}`.padStart(10),
    pct(f.share).padStart(7),
    pct(f.baseRate).padStart(7),
    num(f.lift).padStart(6),
    ci.padStart(14),
    `${f.leadTimes.flagged}/${f.leadTimes.events}`.padStart(8),
    lead.padStart(7),
  ].join(' ');
}

function printResult(result: BacktestResult): void {
  const { history, outcomes } = result.coverage;
  out(resultSummary(result));
  out();
  out(
    `History: ${history.weeks} weeks (${history.firstWeek ?? '—'} to ${history.lastWeek ?? '—'}), ` +
      `${history.startups} startups, from ${history.source}.`,
  );
  out(
    `Outcomes: ${outcomes.searched} startups searched (${outcomes.found} found, ${outcomes.noneFound} none found, ` +
      `${outcomes.ambiguous} ambiguous), ${outcomes.notSearched} not searched, ${outcomes.events} events; ` +
      `${outcomes.tested} startups tested.`,
  );
  for (const span of result.spans) {
    out();
    out(`Span ${span.name}: ${span.fromWeek ?? '—'} to ${span.toWeek ?? '—'}`);
    out(`${'selection'.padEnd(36)}    k  hor.  hits/sel.   share    base   lift  95% interval  flagged  median lead`);
    for (const f of span.figures) out(figureLine(f));
  }
  out();
  for (const limit of result.limits) out(`- ${limit}`);
}

export function registerBacktestCommand(program: Command): void {
  program
    .command('backtest')
    .description(
      'Backtest the stored weekly signal against the announced rounds and acquisitions in the outcomes file (docs/backtest.md).',
    )
    .option('--from <week>', 'first week to test, such as 2024-w01 (default: the oldest stored)', weekSlug)
    .option('--to <week>', 'last week to test (default: the newest stored)', weekSlug)
    .option('--k <list>', 'top-k sizes', positiveInts, [...DEFAULT_KS])
    .option('--horizons <list>', 'horizons in weeks', positiveInts, [...DEFAULT_HORIZONS])
    .option('--seed <n>', 'seed of the bootstrap and the random ranking', integer(0), DEFAULT_SEED)
    .option('--replicates <n>', 'bootstrap replicates', integer(0), DEFAULT_REPLICATES)
    .option('--holdout-from <week>', 'also report the weeks before and from this week apart', weekSlug)
    .option('--outcomes <file>', 'the outcomes file', OUTCOMES_FILE)
    .option('--output <file>', 'where the JSON result is written', BACKTEST_RESULT_FILE)
    .action(
      async (opts: {
        from?: string;
        to?: string;
        k: number[];
        horizons: number[];
        seed: number;
        replicates: number;
        holdoutFrom?: string;
        outcomes: string;
        output: string;
      }) => {
        const config = loadConfig();
        const outcomes = await readOutcomes(opts.outcomes);
        const history = await withMigratedStore(config.database, 2, (store) => loadBacktestHistory(store.db));
        history.weeks = history.weeks.filter(
          (w) => (opts.from === undefined || w.slug >= opts.from) && (opts.to === undefined || w.slug <= opts.to),
        );
        const result = runBacktest(history, outcomes, {
          ks: opts.k,
          horizonsWeeks: opts.horizons,
          seed: opts.seed,
          replicates: opts.replicates,
          holdoutFrom: opts.holdoutFrom,
        });
        await fs.mkdir(path.dirname(opts.output), { recursive: true });
        await fs.writeFile(opts.output, `${JSON.stringify(result, null, 2)}\n`);
        printResult(result);
        out();
        out(`Result written to ${opts.output}`);
      },
    );
}
