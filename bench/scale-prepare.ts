/**
 * The scale benchmark's data, made in a process of its own: `node --import tsx bench/scale-prepare.ts DATA_DIR
 * STARTUPS WEEKS SEED LAST_WEEK` generates STARTUPS × WEEKS with the demo generator (weeks ending with LAST_WEEK),
 * stores every week in DATA_DIR's embedded database as the demo seed does (one publication per week), and prints one
 * line of JSON: up to 2,000 names spread over the list (for the queries), and the time to generate and to store.
 *
 * A process of its own because the generator holds every week's ranked records at once (about 3 million at 100,000
 * startups × 30 weeks, more than Node's default heap), and because its garbage then leaves with it instead of
 * staying in the process that measures the service. scale.ts starts it with a heap sized for that.
 */
import { SYNTHETIC_DATASET } from '../src/domain/datasets.js';
import { parsePeriodSlug } from '../src/domain/periods.js';
import { DEMO_DATASET_NAME, generateDemoDataset } from '../src/pipeline/demo/generate.js';
import { demoPublishedAt } from '../src/pipeline/demo/seed.js';
import { migrateToLatest, openStore } from '../src/store/database.js';
import { publishPeriod } from '../src/store/periods.js';

export interface PreparedData {
  names: string[];
  generateMs: number;
  storeMs: number;
}

const [dataDir, startups, weeks, seed, lastWeek] = process.argv.slice(2);
if (!dataDir || !startups || !weeks || !seed || !lastWeek) {
  process.stderr.write('usage: scale-prepare.ts DATA_DIR STARTUPS WEEKS SEED LAST_WEEK\n');
  process.exit(2);
}
let t = performance.now();
const dataset = generateDemoDataset({
  seed,
  startups: Number(startups),
  periods: Number(weeks),
  endPeriod: parsePeriodSlug(lastWeek),
});
const generateMs = performance.now() - t;
const step = Math.max(1, Math.floor(dataset.entries.length / 2000));
const names = dataset.entries.filter((_, i) => i % step === 0).map((e) => e.displayName);
t = performance.now();
const store = await openStore({ dataDir, databaseUrl: undefined });
try {
  await migrateToLatest(store.db);
  for (const { period, ranked } of dataset.periods) {
    await publishPeriod(store.db, {
      period,
      ranked,
      dataset: SYNTHETIC_DATASET,
      datasetName: DEMO_DATASET_NAME,
      publishedAt: demoPublishedAt(period),
    });
  }
} finally {
  await store.close();
}
const prepared: PreparedData = { names, generateMs, storeMs: performance.now() - t };
process.stdout.write(`${JSON.stringify(prepared)}\n`);
