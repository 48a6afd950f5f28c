import { SYNTHETIC_DATASET } from '../../domain/datasets.js';
import { sql, type Kysely } from 'kysely';
import { addDays, lastCompletePeriod, type PeriodRef } from '../../domain/periods.js';
import { countPeriods, inTransaction, publishPeriod } from '../../store/periods.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from '../../store/schema.js';
import {
  DEMO_DATASET_NAME,
  demoDatasetSteps,
  generateDemoDataset,
  generateDemoLatestWeek,
  type DemoDataset,
  type DemoLatestWeek,
  type DemoOptions,
} from './generate.js';

export const DEMO_STARTUPS = 315;
export const DEMO_PERIODS = 30;
const SEED_LOCK = 724_119_301;

export interface SeedOptions {
  seed: string;
  startups?: number;
  periods?: number;
  /** The newest demo week; by default the last week that has fully ended. */
  endPeriod?: PeriodRef;
  now?: Date;
}

/** The generator's options for these seed options. */
export function generatorOptions(options: SeedOptions): DemoOptions {
  return {
    seed: options.seed,
    startups: options.startups ?? DEMO_STARTUPS,
    periods: options.periods ?? DEMO_PERIODS,
    endPeriod: options.endPeriod ?? lastCompletePeriod(options.now ?? new Date()),
  };
}

/** The demo dataset these options describe (deterministic: the same options give the same dataset). */
export function generateDemo(options: SeedOptions): DemoDataset {
  return generateDemoDataset(generatorOptions(options));
}

/**
 * `generateDemo(options)`, one organisation per turn of the event loop (a serving process answers between them);
 * undefined once `cancelled` says so (the server is closing).
 */
export async function generateDemoInTurns(
  options: SeedOptions,
  cancelled: () => boolean = () => false,
): Promise<DemoDataset | undefined> {
  const steps = demoDatasetSteps(generatorOptions(options));
  for (;;) {
    if (cancelled()) return undefined;
    const next = steps.next();
    if (next.done) return next.value;
    await nextTurn();
  }
}

/** The newest week of `generateDemo(options)` alone, and its entries (a thirtieth of the work). */
export function generateDemoLatest(options: SeedOptions): DemoLatestWeek {
  return generateDemoLatestWeek(generatorOptions(options));
}

/** When the demo data publishes a week: a simulated weekly publication, the Monday after the week, 06:00 UTC. */
export function demoPublishedAt(period: PeriodRef): Date {
  return new Date(`${addDays(period.endsOn, 1)}T06:00:00Z`);
}

/**
 * Loads the synthetic demo dataset when the store holds no period at all. Several instances starting together
 * serialise on an advisory lock, so the dataset is written once. Returns the number of periods written.
 * `generated` is the dataset generateDemo(options) made beforehand (a first start makes it while the embedded
 * database initialises); without it the dataset is generated here, and only when the store is empty.
 */
export async function seedDemoIfEmpty(
  db: Kysely<Database>,
  options: SeedOptions,
  generated?: DemoDataset,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
    if ((await countPeriods(trx)) > 0) return 0;
    const dataset = generated ?? generateDemo(options);
    for (const { period, ranked } of dataset.periods) {
      await publishPeriod(trx, {
        period,
        ranked,
        dataset: SYNTHETIC_DATASET,
        datasetName: DEMO_DATASET_NAME,
        publishedAt: demoPublishedAt(period),
      });
    }
    return dataset.periods.length;
  });
}
