import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { signalsCsv } from '../src/snapshot/snapshot.js';
import { startupSeries } from '../src/snapshot/history.js';
import { siteSearch } from '../src/core/search/documents.js';
import { answerCorpus } from '../src/core/answers/corpus.js';
import { demoSnapshot } from './core/fixtures.js';
import { createTestStorage, type TestStorage } from './helpers/database.js';

const BASE = 'https://signals.test';

describe('the composition root', () => {
  let storage: TestStorage;
  let app: App;
  const period = demoSnapshot({ startups: 45, periods: 1 });

  before(async () => {
    storage = await createTestStorage({ contents: 'migrated' });
    const config = loadConfig({
      DATA_DIR: storage.dataDir,
      BASE_URL: BASE,
      LOG_LEVEL: 'silent',
      ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    });
    app = await createApp(config, pino({ level: 'silent' }), { snapshot: period });
    await app.open();
  });
  after(async () => {
    await app?.close();
    await storage?.cleanup();
  });

  test('an in-memory period is served as given, and no demo data is stored beside it', async () => {
    assert.equal(app.holder.current, period);
    const stored = await app.store.db.selectFrom('periods').select('slug').execute();
    assert.deepEqual(stored, []);
  });

  test("the warm-up builds the period's bodies and indexes into the period itself", async () => {
    app.warmUp();
    await app.holder.settled();
    assert.ok(period.derived.has(signalsCsv), 'the CSV export');
    assert.ok(period.derived.has(startupSeries), 'the chart series');
    // The stepped indexes are kept per base URL inside the period: reading them now builds nothing new.
    const before = period.derived.size;
    siteSearch(period, BASE);
    answerCorpus(period, BASE);
    assert.equal(period.derived.size, before);
  });

  test('the markets of a period are computed once, for every surface that shows them', async () => {
    const first = await app.services.markets.all(period);
    assert.equal(await app.services.markets.all(period), first);
    assert.deepEqual(
      [...first.keys()],
      app.services.markets.definitions.map((d) => d.slug),
    );
  });

  test('the scout service is one per application', () => {
    assert.equal(app.services.scout, app.services.scout);
  });

  test('without Stripe there is no checkout and no key e-mail', () => {
    assert.equal(app.services.checkout, undefined);
    assert.equal(app.services.mailsKeys, false);
  });
});
