import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Resolver } from '../../../src/core/alerts/address-guard.js';
import { deliverDueWebhooks, deliveryRetryDelay, type DeliveryOptions } from '../../../src/core/alerts/delivery.js';
import { AlertsService } from '../../../src/core/alerts/service.js';
import { createAccount } from '../../../src/payments/keys.js';
import { SecretBox } from '../../../src/payments/secret-box.js';
import { DEMO_DATASET_NAME, type DemoPeriod } from '../../../src/pipeline/demo/generate.js';
import { SECTOR_SLUGS } from '../../../src/schemas/enums.js';
import type { AlertEvent } from '../../../src/schemas/alerts.js';
import { migrateToLatest, openStore, type Store } from '../../../src/store/database.js';
import { publishPeriod } from '../../../src/store/periods.js';
import { createTestStorage, type TestStorage } from '../../helpers/database.js';
import { WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { generatedPeriods } from './fixtures.js';

const SECRET = 'alerts-test-secret-alerts-test-secret-0123456789';
const WATCH_EVERYTHING = { sectors: [...SECTOR_SLUGS], trendingTop20: true };

/** A resolver whose answers the test changes between creation and delivery (DNS rebinding). */
function switchableResolver(initial: Record<string, string>) {
  const answers = { ...initial };
  const resolve: Resolver = async (host) => {
    const address = answers[host];
    if (!address) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return [{ address, family: 4 }];
  };
  return { answers, resolve };
}

describe('webhook delivery from the durable queue', () => {
  let storage: TestStorage;
  let store: Store;
  let accountId: string;
  let periods: DemoPeriod[];
  let published = 0;
  const receiver = new WebhookReceiver();
  const box = new SecretBox(SECRET);

  /** Publishes the next generated period now (after any subscription created so far). */
  async function publishNext(): Promise<string> {
    const p = periods[published++]!;
    await publishPeriod(store.db, {
      ...p,
      dataset: 'synthetic-demo',
      datasetName: DEMO_DATASET_NAME,
      publishedAt: new Date(Date.now() + 1000),
    });
    return p.period.slug;
  }

  function service(resolve: Resolver, allowPrivate: boolean): AlertsService {
    return new AlertsService({
      db: store.db,
      baseUrl: 'http://signal-service.invalid',
      box,
      tokenSecret: SECRET,
      policy: { allowPrivate, resolve },
      mail: false,
    });
  }

  function queue(resolve: Resolver, allowPrivate: boolean): DeliveryOptions {
    return { db: store.db, box, policy: { allowPrivate, resolve }, retryMs: 30_000, maxAttempts: 30, timeoutMs: 5000 };
  }

  /** The clock moves on past every scheduled retry (instead of the test waiting for it). */
  async function timePasses(): Promise<void> {
    await store.db
      .updateTable('alert_deliveries')
      .set({ next_attempt_at: new Date(Date.now() - 1000) })
      .where('status', '=', 'pending')
      .execute();
  }

  /** One queue pass over everything due now (the queue takes batches: as many as it takes). */
  async function pass(options: DeliveryOptions): Promise<void> {
    for (;;) {
      const { delivered, failed } = await deliverDueWebhooks(options);
      if (delivered + failed === 0) return;
    }
  }

  async function eventIds(subscriptionId: string): Promise<string[]> {
    const rows = await store.db
      .selectFrom('alert_events')
      .select('id')
      .where('subscription_id', '=', subscriptionId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  before(async () => {
    storage = await createTestStorage({ contents: 'migrated' });
    store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 4 });
    await migrateToLatest(store.db);
    accountId = await createAccount(store.db);
    periods = generatedPeriods(5).periods;
    await publishNext();
    await receiver.up();
  });

  after(async () => {
    await receiver.close();
    await store.close();
    await storage.cleanup();
  });

  test('a receiver down for a while gets every event exactly once when it comes back, each signature verified', async () => {
    const resolve = switchableResolver({}).resolve;
    const alerts = service(resolve, true);
    const created = await alerts.create(accountId, { watch: WATCH_EVERYTHING, webhookUrl: receiver.url });
    assert.ok(created.ok);
    assert.match(created.value.webhookSecret!, /^whsec_[A-Za-z0-9+/]+=*$/);
    receiver.secret = created.value.webhookSecret!;
    const slug = await publishNext();
    const recorded = await alerts.recordPeriod(slug);
    assert.ok(recorded.events > 0, 'the generated period changes something');
    const ids = await eventIds(created.value.id);
    assert.equal(ids.length, recorded.events);

    await receiver.down(); // connections refused, attempt after attempt
    for (let i = 0; i < 3; i++) {
      await pass(queue(resolve, true));
      await timePasses();
    }
    await receiver.up();
    receiver.failing = true; // back, but answering 503
    await pass(queue(resolve, true));
    assert.equal(receiver.received.length, 0);
    receiver.failing = false;
    await timePasses();
    await pass(queue(resolve, true));

    assert.deepEqual(receiver.rejected, []);
    assert.deepEqual(receiver.received.map((r) => r.id).sort(), ids);
    const bodies = receiver.received.map((r) => r.body as AlertEvent);
    assert.ok(bodies.every((b) => b.subscriptionId === created.value.id && b.data.period.slug === slug));

    // Running the rules again, and the queue again, sends nothing more.
    assert.equal((await alerts.recordPeriod(slug)).events, 0);
    await timePasses();
    await pass(queue(resolve, true));
    assert.equal(receiver.received.length, ids.length);

    const log = await alerts.deliveries(accountId, created.value.id);
    assert.ok(log.ok);
    assert.equal(log.value.length, ids.length);
    for (const entry of log.value) {
      assert.equal(entry.status, 'delivered');
      assert.equal(entry.lastStatus, 204);
      assert.equal(entry.attempts, 5); // 3 refused, 1 answered 503, then delivered
      assert.ok(entry.deliveredAt);
    }
    assert.ok((await alerts.delete(accountId, created.value.id)).ok);
  });

  test('two instances draining the queue beside a slow receiver send each event once', async () => {
    const resolve = switchableResolver({}).resolve;
    const alerts = service(resolve, true);
    const created = await alerts.create(accountId, { watch: WATCH_EVERYTHING, webhookUrl: receiver.url });
    assert.ok(created.ok);
    receiver.secret = created.value.webhookSecret!;
    const slug = await publishNext();
    assert.ok((await alerts.recordPeriod(slug)).events > 1, 'the generated period changes several things');
    const ids = await eventIds(created.value.id);
    const before = receiver.received.length;
    // Each answer takes 300 ms; a batch sent one receiver after another would outlast the 1 s lease, and the other
    // instance would claim and send the same rows again.
    receiver.delayMs = 300;
    try {
      const options = { ...queue(resolve, true), leaseMs: 1_000 };
      await Promise.all([pass(options), pass(options)]);
    } finally {
      receiver.delayMs = 0;
    }
    const sent = receiver.received.slice(before).map((r) => r.id);
    assert.deepEqual([...sent].sort(), ids);
    assert.ok((await alerts.delete(accountId, created.value.id)).ok);
  });

  test('the retry delay doubles to at most an hour, and the default attempts outlast a receiver down for an hour', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => deliveryRetryDelay(30_000, n)),
      [30_000, 60_000, 120_000, 240_000],
    );
    assert.equal(deliveryRetryDelay(30_000, 20), 3_600_000);
    let waited = 0;
    for (let attempt = 1; attempt < 30; attempt++) waited += deliveryRetryDelay(30_000, attempt);
    assert.ok(waited > 20 * 3_600_000, `${waited} ms`);
  });

  test('a name that resolved to a public address at creation and to loopback at delivery is not delivered to', async () => {
    const dns = switchableResolver({ 'hooks.rebind.test': '93.184.215.14' });
    const alerts = service(dns.resolve, false);
    const url = receiver.url.replace('127.0.0.1', 'hooks.rebind.test');
    const created = await alerts.create(accountId, { watch: WATCH_EVERYTHING, webhookUrl: url });
    assert.ok(created.ok, created.ok ? '' : created.error.detail);
    receiver.secret = created.value.webhookSecret!;
    const slug = await publishNext();
    assert.ok((await alerts.recordPeriod(slug)).events > 0);
    dns.answers['hooks.rebind.test'] = '127.0.0.1';
    const hits = receiver.hits;
    await pass({ ...queue(dns.resolve, false), maxAttempts: 1 });
    assert.equal(receiver.hits, hits);
    const log = await alerts.deliveries(accountId, created.value.id);
    assert.ok(log.ok && log.value.length > 0);
    for (const entry of log.value) {
      assert.equal(entry.status, 'failed');
      assert.match(entry.lastError!, /hooks\.rebind\.test resolves to 127\.0\.0\.1/);
    }
    await alerts.delete(accountId, created.value.id);
  });

  test('a redirect is not followed: the delivery fails and the redirect target hears nothing', async () => {
    const target = await WebhookReceiver.start();
    try {
      const resolve = switchableResolver({}).resolve;
      const alerts = service(resolve, true);
      const created = await alerts.create(accountId, { watch: WATCH_EVERYTHING, webhookUrl: receiver.url });
      assert.ok(created.ok);
      const slug = await publishNext();
      assert.ok((await alerts.recordPeriod(slug)).events > 0);
      receiver.redirectTo = target.url;
      await pass({ ...queue(resolve, true), maxAttempts: 1 });
      receiver.redirectTo = undefined;
      assert.equal(target.hits, 0);
      const log = await alerts.deliveries(accountId, created.value.id);
      assert.ok(log.ok && log.value.length > 0);
      for (const entry of log.value) {
        assert.equal(entry.status, 'failed');
        assert.equal(entry.lastStatus, 307);
        assert.match(entry.lastError!, /redirect \(307\) not followed/);
      }
      await alerts.delete(accountId, created.value.id);
    } finally {
      await target.close();
    }
  });

  test('a webhook URL whose name resolves to loopback is refused at creation', async () => {
    const alerts = service(switchableResolver({ 'localhost.attacker.test': '127.0.0.1' }).resolve, false);
    const created = await alerts.create(accountId, {
      watch: WATCH_EVERYTHING,
      webhookUrl: 'https://localhost.attacker.test/hook',
    });
    assert.ok(!created.ok);
    assert.equal(created.error.status, 422);
    assert.match(created.error.detail!, /resolves to 127\.0\.0\.1/);
  });
});
