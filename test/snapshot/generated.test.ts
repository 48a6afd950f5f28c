import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { lastCompletePeriod } from '../../src/domain/periods.js';
import { DEMO_PERIODS, DEMO_STARTUPS, generateDemoLatest } from '../../src/pipeline/demo/seed.js';
import { demoHistory, latestDemoSnapshot } from '../../src/snapshot/generated.js';
import { loadSnapshot } from '../../src/snapshot/load.js';
import type { PeriodSource, Snapshot } from '../../src/snapshot/snapshot.js';
import { openStore, type Store } from '../../src/store/database.js';
import { createTestStorage, DEFAULT_DEMO_SEED, type TestStorage } from '../helpers/database.js';
import { generatedDemo } from '../helpers/demo.js';

const BASE = 'http://signal-service.invalid';
const OPTIONS = { seed: DEFAULT_DEMO_SEED, endPeriod: lastCompletePeriod(new Date()) };

describe('the snapshot a first start serves before the demo is stored', () => {
  let storage: TestStorage;
  let store: Store;
  let stored: Snapshot;
  let first: Snapshot;
  let release: (source: PeriodSource) => void = () => {};
  let released = false;
  before(async () => {
    storage = await createTestStorage({ contents: 'demo' });
    store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 2 });
    stored = (await loadSnapshot(store.db, BASE))!;
    first = latestDemoSnapshot(
      generateDemoLatest(OPTIONS),
      OPTIONS,
      BASE,
      new Promise((resolve) => (release = resolve)),
    );
  });
  after(async () => {
    await store.close();
    await storage.cleanup();
  });
  const releaseHistory = () => {
    released = true;
    const full = generatedDemo({ ...OPTIONS, startups: DEMO_STARTUPS, periods: DEMO_PERIODS });
    release(demoHistory(full));
  };

  test('lists the stored weeks with their names and publication times', () => {
    const without = (s: Snapshot) => s.periods.map(({ contentHash: _, ...info }) => info);
    assert.deepEqual(without(first), without(stored));
  });

  test('holds the newest week with the content hash the store publishes it with', () => {
    assert.deepEqual(first.period, stored.period);
  });

  test('serves the stored snapshot’s signals body byte for byte, with its ETag', () => {
    assert.equal(first.signalsJson.etag, stored.signalsJson.etag);
    assert.ok(first.signalsJson.body.equals(stored.signalsJson.body));
  });

  test('answers an earlier week only once that week is generated', async () => {
    const slug = stored.periods[3]!.slug;
    const read = first.source.periodStartups(slug).then((rows) => ({ rows, released }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    releaseHistory();
    const { rows, released: before } = await read;
    assert.equal(before, true);
    assert.deepEqual(rows, await stored.source.periodStartups(slug));
  });

  test('answers a startup’s history as the store does', async () => {
    const login = stored.trending[0]!.login;
    assert.deepEqual(await first.source.startupHistory(login), await stored.source.startupHistory(login));
  });
});
