import { z } from 'zod';

/** A 95% bootstrap interval; its ends are null when too few replicates defined the figure. */
export const Interval = z
  .object({ low: z.number().nullable(), high: z.number().nullable() })
  .meta({ id: 'BacktestInterval', description: '2.5th and 97.5th percentiles of the bootstrap replicates.' });

export const LeadTimes = z
  .object({
    events: z.int().min(0).describe('Events of tested startups with at least one week to judge them from.'),
    flagged: z.int().min(0).describe('Of those, events whose startup was selected in a week before them.'),
    quartilesDays: z
      .tuple([z.number(), z.number(), z.number()])
      .nullable()
      .describe('25th, 50th and 75th percentile of the lead times in days (null when none was flagged).'),
    bands: z
      .array(z.object({ fromWeeks: z.int(), toWeeks: z.int(), count: z.int().min(0) }))
      .describe('Flagged events by lead time, in weeks.'),
  })
  .meta({ id: 'BacktestLeadTimes' });

export const BacktestFigure = z
  .object({
    selection: z
      .string()
      .describe('composite, a signal type, commits, contributors or random (rankings); group: a labelled type.'),
    role: z.enum(['signal', 'signal-type', 'group', 'control']),
    k: z.int().min(1).nullable().describe('Top k of the ranking; null for a group, whose size varies.'),
    horizonWeeks: z.int().min(1),
    weeks: z.int().min(0).describe('Weeks tested (with a non-empty universe).'),
    selected: z.int().min(0).describe('Startup-weeks selected, summed over the weeks.'),
    hits: z.int().min(0).describe('Of those, startup-weeks followed by an event inside the horizon.'),
    share: z.number().nullable(),
    baseRate: z.number().nullable(),
    lift: z.number().nullable().describe('share / baseRate; null when the base rate is 0.'),
    shareInterval: Interval,
    liftInterval: Interval,
    leadTimes: LeadTimes,
  })
  .meta({ id: 'BacktestFigure' });
export type BacktestFigure = z.infer<typeof BacktestFigure>;

export const BacktestSpan = z
  .object({
    name: z.enum(['all', 'earlier', 'later']),
    fromWeek: z.string().nullable(),
    toWeek: z.string().nullable(),
    figures: z.array(BacktestFigure),
  })
  .meta({ id: 'BacktestSpan' });
export type BacktestSpan = z.infer<typeof BacktestSpan>;

export const BacktestMethod = z
  .object({
    document: z.string().describe('Where the method is written down.'),
    horizonsWeeks: z.array(z.int().min(1)),
    ks: z.array(z.int().min(1)),
    primary: z.object({ selection: z.string(), k: z.int(), horizonWeeks: z.int() }),
    bootstrap: z.string(),
    replicates: z.int().min(0),
    seed: z.int(),
    confidence: z.number(),
    holdoutFrom: z.string().nullable(),
  })
  .meta({ id: 'BacktestMethod' });
export type BacktestMethod = z.infer<typeof BacktestMethod>;

export const BacktestCoverage = z
  .object({
    history: z.object({
      firstWeek: z.string().nullable(),
      lastWeek: z.string().nullable(),
      weeks: z.int().min(0),
      startups: z.int().min(0),
      datasets: z.array(z.string()).describe('Datasets the stored weeks come from (github, synthetic-demo).'),
      datasetNames: z.array(z.string()),
      synthetic: z.boolean(),
      source: z.string().describe('What built the weekly records the history is made of.'),
    }),
    outcomes: z.object({
      searched: z.int().min(0),
      found: z.int().min(0),
      noneFound: z.int().min(0),
      ambiguous: z.int().min(0),
      notSearched: z.int().min(0).describe('Startups in the history with no entry in the outcomes file.'),
      events: z.int().min(0),
      tested: z.int().min(0).describe('Startups that took part in at least one tested week.'),
    }),
  })
  .meta({ id: 'BacktestCoverage' });
export type BacktestCoverage = z.infer<typeof BacktestCoverage>;

export const BacktestResult = z
  .object({
    computedAt: z.iso.datetime(),
    method: BacktestMethod,
    coverage: BacktestCoverage,
    spans: z.array(BacktestSpan),
    limits: z.array(z.string()),
  })
  .meta({ id: 'BacktestResult', description: 'The figures of one backtest run (docs/backtest.md).' });
export type BacktestResult = z.infer<typeof BacktestResult>;

/** What GET /api/v1/backtest.json answers: the result, or why there is none. */
export const BacktestReport = z
  .discriminatedUnion('status', [
    BacktestResult.extend({
      status: z.literal('computed'),
      synthetic: z.boolean().describe('true when the figures are of the synthetic demo data.'),
      summary: z.string(),
    }),
    z.object({
      status: z.literal('not-run'),
      synthetic: z.boolean(),
      summary: z.string(),
      reasons: z.array(z.string()),
      method: z.object({ document: z.string() }),
      limits: z.array(z.string()),
    }),
  ])
  .meta({ id: 'BacktestReport' });
export type BacktestReport = z.infer<typeof BacktestReport>;
