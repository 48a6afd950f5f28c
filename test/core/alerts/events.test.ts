import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { periodsToRecord } from '../../../src/core/alerts/events.js';
import { AlertsService } from '../../../src/core/alerts/service.js';
import { createAccount } from '../../../src/payments/keys.js';
import { SecretBox } from '../../../src/payments/secret-box.js';
import { DEMO_DATASET_NAME, type DemoPeriod } from '../../../src/pipeline/demo/generate.js';
import { SECTOR_SLUGS } from '../../../src/schemas/enums.js';
import { migrateToLatest, openStore, type Store } from '../../../src/store/database.js';
import { publishPeriod } from '../../../src/store/periods.js';
import { createTestStorage, type TestStorage } from '../../helpers/database.js';
import { generatedPeriods } from './fixtures.js';

const SECRET = 'alerts-events-secret-alerts-events-secret-0123';

describe('alert events for periods published while no server ran', () => {
  let storage: TestStorage;
  let store: Store;
  let periods: DemoPeriod[];
  let published = 0;

  async function publishNext(): Promise<string> {
    const p = periods[published++]!;
    await publishPeriod(store.db, {
      ...p,
      dataset: 'synthetic-demo',
      datasetName: DEMO_DATASET_NAME,
      publishedAt: new Date(Date.now() + 1000 * published),
    });
    return p.period.slug;
  }

  const service = () =>
    new AlertsService({
      db: store.db,
      baseUrl: 'http://signal-service.invalid',
      box: new SecretBox(SECRET),
      tokenSecret: SECRET,
      policy: { allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
      mail: false,
    });

  async function eventPeriods(): Promise<string[]> {
    const rows = await store.db.selectFrom('alert_events').select('period_slug').distinct().execute();
    return rows.map((r) => r.period_slug).sort();
  }

  before(async () => {
    storage = await createTestStorage({ contents: 'migrated' });
    store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 2 });
    await migrateToLatest(store.db);
    periods = generatedPeriods(4).periods;
  });

  after(async () => {
    await store.close();
    await storage.cleanup();
  });

  test('a server that starts on the newest week records the weeks published since the last one it saw', async () => {
    const first = await publishNext();
    const account = await createAccount(store.db);
    const created = await service().create(account, { watch: { sectors: [...SECTOR_SLUGS], trendingTop20: true } });
    assert.ok(created.ok);
    // Two weeks published while no server ran.
    const second = await publishNext();
    const third = await publishNext();
    assert.deepEqual(await periodsToRecord(store.db, third), [second, third]);
    const recorded = await service().recordNewPeriods(third);
    assert.deepEqual(
      recorded.map((r) => r.period),
      [second, third],
    );
    assert.ok(recorded.every((r) => r.events > 0));
    assert.deepEqual(await eventPeriods(), [second, third].sort());
    assert.ok(!(await eventPeriods()).includes(first), 'the first week has nothing before it to compare with');
  });

  test('a running server records only the new week, and recording a week again adds nothing', async () => {
    const alerts = service();
    const third = periods[2]!.period.slug;
    const again = await alerts.recordNewPeriods(third);
    assert.deepEqual(
      again.map((r) => [r.period, r.events]),
      [
        [periods[1]!.period.slug, 0],
        [third, 0],
      ],
    );
    const fourth = await publishNext();
    const next = await alerts.recordNewPeriods(fourth);
    assert.deepEqual(
      next.map((r) => r.period),
      [fourth],
    );
    assert.ok(next[0]!.events > 0);
  });
});
