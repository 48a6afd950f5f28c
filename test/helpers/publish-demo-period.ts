/**
 * A separate process that writes to a store the way a CLI command does (openStore → write → close):
 * publishes one synthetic period. Usage: tsx publish-demo-period.ts <period-slug> <startups>
 * Storage comes from DATA_DIR / DATABASE_URL like every command.
 */
import { loadConfig } from '../../src/config.js';
import { parsePeriodSlug } from '../../src/domain/periods.js';
import { DEMO_DATASET_NAME, generateDemoDataset } from '../../src/pipeline/demo/generate.js';
import { migrateToLatest, openStore } from '../../src/store/database.js';
import { publishPeriod } from '../../src/store/periods.js';

const [slug, startups] = process.argv.slice(2);
const config = loadConfig();
const store = await openStore({ dataDir: config.database.dataDir, databaseUrl: config.database.url, poolSize: 2 });
await migrateToLatest(store.db);
const dataset = generateDemoDataset({
  seed: 'second-process',
  startups: Number(startups ?? 30),
  periods: 1,
  endPeriod: parsePeriodSlug(slug!),
});
await publishPeriod(store.db, {
  ...dataset.periods[0]!,
  dataset: 'synthetic-demo',
  datasetName: DEMO_DATASET_NAME,
  publishedAt: new Date(),
});
process.stdout.write(JSON.stringify({ hostedEmbedded: store.hostsEmbedded }));
await store.close();
