import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { issueKey } from '../../../src/payments/keys.js';
import { DEMO_DATASET_NAME, type DemoPeriod } from '../../../src/pipeline/demo/generate.js';
import { SECTOR_SLUGS } from '../../../src/schemas/enums.js';
import { publishPeriod } from '../../../src/store/periods.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { FakeSmtp } from '../../helpers/fake-smtp.js';
import { WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { generatedPeriods } from '../../core/alerts/fixtures.js';

type Json = Record<string, any>;
/** Set, so the tests run the same on PostgreSQL (where alerts are off without it). */
const ALERTS_SECRET = 'test-alerts-secret-0123456789-abcdefghijkl';
const PROBLEM = /^application\/problem\+json/;
const WATCH_EVERYTHING = { sectors: [...SECTOR_SLUGS], trendingTop20: true };

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('alert subscriptions over REST, delivered when a period is published', () => {
  let app: TestApp;
  let smtp: FakeSmtp;
  let receiver: WebhookReceiver;
  let key: string;
  let otherKey: string;
  let periods: DemoPeriod[];

  const auth = (k = key) => ({ authorization: `Bearer ${k}` });
  const post = (body: unknown, k = key) =>
    app.get('/api/alerts/subscriptions', {
      method: 'POST',
      headers: { ...auth(k), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const publish = (p: DemoPeriod) =>
    publishPeriod(app.service.store.db, {
      ...p,
      dataset: 'synthetic-demo',
      datasetName: DEMO_DATASET_NAME,
      publishedAt: new Date(Date.now() + 1000),
    });

  before(async () => {
    smtp = await FakeSmtp.start();
    receiver = await WebhookReceiver.start();
    app = await startTestApp(
      {
        ALERTS_SECRET,
        SMTP_URL: smtp.url,
        MAIL_RETRY_MS: '200',
        ALERTS_ALLOW_PRIVATE_WEBHOOKS: 'on',
        ALERTS_RETRY_MS: '200',
      },
      { watchPeriods: true },
    );
    key = (await issueKey(app.service.store.db, { credits: 3, reason: 'test' })).key;
    otherKey = (await issueKey(app.service.store.db, { credits: 1, reason: 'test' })).key;
    periods = generatedPeriods(2).periods;
    await publish(periods[0]!);
    await until(
      'the first stored period to be served',
      () => app.service.holder.current?.period.slug === periods[0]!.period.slug,
    );
  });

  after(async () => {
    await app.close();
    await receiver.close();
    await smtp.close();
  });

  test('creating a subscription needs a credit-pack key', async () => {
    const response = await app.get('/api/alerts/subscriptions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ watch: { trendingTop20: true } }),
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('content-type')!, PROBLEM);
  });

  test('a subscription that watches nothing is a 400 problem naming the field', async () => {
    const response = await post({ watch: {} });
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type')!, PROBLEM);
    const body = (await response.json()) as Json;
    assert.match(body.detail, /watches nothing/);
  });

  test('an unknown sector or a non-http webhook URL is a 400 problem', async () => {
    assert.equal((await post({ watch: { sectors: ['fintech'] } })).status, 400);
    assert.equal((await post({ watch: { trendingTop20: true }, webhookUrl: 'ftp://example.com/x' })).status, 400);
  });

  test('a webhook URL with credentials in it is refused', async () => {
    const response = await post({ watch: { trendingTop20: true }, webhookUrl: 'https://user:pw@example.com/hook' });
    assert.equal(response.status, 422);
    assert.match(response.headers.get('content-type')!, PROBLEM);
  });

  test('creating a subscription spends no credit and shows the webhook secret once', async () => {
    const login = app.service.holder.current!.startups[0]!.login;
    const response = await post({
      label: 'mine',
      watch: { startups: [login.toUpperCase()] },
      webhookUrl: receiver.url,
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('x-credits-balance'), '3');
    const body = (await response.json()) as Json;
    assert.match(body.id, /^sub_[0-9a-f]{20}$/);
    assert.equal(response.headers.get('location'), `/api/alerts/subscriptions/${body.id}`);
    assert.match(body.webhookSecret, /^whsec_/);
    assert.deepEqual(body.watch, { startups: [login.toLowerCase()] });
    const again = (await (await app.get(`/api/alerts/subscriptions/${body.id}`, { headers: auth() })).json()) as Json;
    assert.equal(again.webhookSecret, undefined);
    assert.equal(again.label, 'mine');
    const balance = (await (await app.get('/api/account/credits', { headers: auth() })).json()) as Json;
    assert.equal(balance.balance, 3);
    // It watches a tracked startup, so it would fire, signed with its own secret, when the next period is published.
    await app.get(`/api/alerts/subscriptions/${body.id}`, { method: 'DELETE', headers: auth() });
  });

  test("a startup's name watches that one tracked organisation, and the answer names it back", async () => {
    const s = app.service.holder.current!.startups.find((x) => /\s/.test(x.startup.name))!;
    assert.ok(s, 'a tracked startup whose name has a space');
    const response = await post({ watch: { startups: [s.startup.name] } });
    assert.equal(response.status, 201);
    const body = (await response.json()) as Json;
    assert.deepEqual(body.watch, { startups: [s.login.toLowerCase()] });
    assert.deepEqual(body.watching, [
      { org: s.login.toLowerCase(), name: s.startup.name, url: `${app.url}/startups/${s.login.toLowerCase()}` },
    ]);
    assert.equal(body.confirmation, `You are watching ${s.startup.name}.`);
    const again = (await (await app.get(`/api/alerts/subscriptions/${body.id}`, { headers: auth() })).json()) as Json;
    assert.deepEqual(again.watching, body.watching);
  });

  test('an organisation nobody tracks is a 422 problem naming it, and nothing is created', async () => {
    const before = ((await (await app.get('/api/alerts/subscriptions', { headers: auth() })).json()) as Json)
      .subscriptions.length;
    const tracked = app.service.holder.current!.startups[0]!.login;
    const response = await post({ watch: { startups: [tracked, 'nobody-tracks-this-org'] } });
    assert.equal(response.status, 422);
    assert.match(response.headers.get('content-type')!, PROBLEM);
    const body = (await response.json()) as Json;
    assert.match(body.detail, /“nobody-tracks-this-org” is not a startup this service tracks\./);
    assert.deepEqual(
      body.errors.map((e: Json) => e.location),
      ['body.watch.startups.1'],
    );
    const after = ((await (await app.get('/api/alerts/subscriptions', { headers: auth() })).json()) as Json)
      .subscriptions.length;
    assert.equal(after, before);
  });

  test('a typo of a tracked name is refused with the startup offered, never watched in its place', async () => {
    const s = app.service.holder.current!.startups.find((x) => /^\p{L}{6,}/u.test(x.startup.name))!;
    const typo = `${s.startup.name.slice(0, 2)}${s.startup.name[3]}${s.startup.name[2]}${s.startup.name.slice(4)}`;
    const response = await post({ watch: { startups: [typo] } });
    assert.equal(response.status, 422);
    const body = (await response.json()) as Json;
    assert.ok(
      (body.candidates as Json[]).some((c) => c.org === s.login),
      JSON.stringify(body),
    );
    assert.match(body.detail, new RegExp(`Did you mean .*${s.startup.name}`));
  });

  test("another key's subscription is not found, and cannot be deleted", async () => {
    const mine = (await (await post({ watch: { trendingTop20: true } })).json()) as Json;
    assert.equal((await app.get(`/api/alerts/subscriptions/${mine.id}`, { headers: auth(otherKey) })).status, 404);
    const deleted = await app.get(`/api/alerts/subscriptions/${mine.id}`, {
      method: 'DELETE',
      headers: auth(otherKey),
    });
    assert.equal(deleted.status, 404);
    const list = (await (await app.get('/api/alerts/subscriptions', { headers: auth(otherKey) })).json()) as Json;
    assert.deepEqual(list.subscriptions, []);
  });

  test('a malformed subscription id is a 400 problem', async () => {
    const response = await app.get('/api/alerts/subscriptions/not-an-id', { headers: auth() });
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type')!, PROBLEM);
  });

  test('a published period reaches the webhook, the e-mail digest, the feed and the delivery log; unsubscribing works without a key', async () => {
    const created = (await (
      await post({
        label: 'everything',
        watch: WATCH_EVERYTHING,
        webhookUrl: receiver.url,
        email: 'investor@example.com',
      })
    ).json()) as Json;
    receiver.secret = created.webhookSecret;
    const before = receiver.received.length;
    await publish(periods[1]!);

    // The digest arrives once the events are recorded and every event reaches the webhook.
    const mail = await until('the digest e-mail', () =>
      smtp.messages.find((m) => m.to.includes('investor@example.com')),
    );
    const events = await until('the events in the feed', async () => {
      const feed = await app.get(new URL(created.feedUrl).pathname + new URL(created.feedUrl).search);
      const text = await feed.text();
      return feed.status === 200 && text.includes('<entry>') ? text : undefined;
    });
    const count = (events.match(/<entry>/g) ?? []).length;
    await until('every webhook delivery', () => receiver.received.length - before >= count);
    const mine = receiver.received.slice(before);
    assert.equal(new Set(mine.map((r) => r.id)).size, count);
    assert.deepEqual(receiver.rejected, []);
    assert.match(mail.raw, /Subject: Signal Service alerts: \d+ changes? in Week/);

    const log = (await (
      await app.get(`/api/alerts/subscriptions/${created.id}/deliveries`, { headers: auth() })
    ).json()) as Json;
    const webhooks = log.deliveries.filter((d: Json) => d.channel === 'webhook');
    assert.equal(webhooks.length, count);
    assert.ok(webhooks.every((d: Json) => d.status === 'delivered' && d.lastStatus === 204));
    const digest = await until('the digest marked sent', async () => {
      const l = (await (
        await app.get(`/api/alerts/subscriptions/${created.id}/deliveries`, { headers: auth() })
      ).json()) as Json;
      return l.deliveries.find((d: Json) => d.channel === 'email' && d.status === 'delivered');
    });
    assert.equal(digest.target, 'investor@example.com');

    // The unsubscribe link of the e-mail: a page with a button, then the POST it sends.
    const link = /(http:\/\/signal-service\.invalid\/alerts\/unsubscribe\?token=[A-Za-z0-9_.-]+)/.exec(
      mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
    )?.[1];
    assert.ok(link, 'the digest carries an unsubscribe link');
    const token = new URL(link).searchParams.get('token')!;
    const page = await app.get(`/alerts/unsubscribe?token=${token}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<form method="post" action="\/alerts\/unsubscribe">/);
    const still = (await (
      await app.get(`/api/alerts/subscriptions/${created.id}`, { headers: auth() })
    ).json()) as Json;
    assert.equal(still.email, 'investor@example.com', 'opening the link changes nothing');
    const done = await app.get('/alerts/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    assert.equal(done.status, 200);
    assert.match(await done.text(), /Unsubscribed/);
    const after = (await (
      await app.get(`/api/alerts/subscriptions/${created.id}`, { headers: auth() })
    ).json()) as Json;
    assert.equal(after.email, null);
    assert.equal(after.webhookUrl, receiver.url);
    assert.equal(smtp.messages.filter((m) => m.to.includes('investor@example.com')).length, 1, 'one digest a period');
  });

  test('a forged unsubscribe token is refused', async () => {
    const mine = (await (await post({ watch: { trendingTop20: true } })).json()) as Json;
    const response = await app.get('/alerts/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${mine.id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
    });
    assert.equal(response.status, 404);
  });

  test('the feed needs its own token', async () => {
    const mine = (await (await post({ watch: { trendingTop20: true } })).json()) as Json;
    const response = await app.get(`/api/alerts/subscriptions/${mine.id}/feed.atom?token=wrong`);
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type')!, PROBLEM);
    const feed = await app.get(new URL(mine.feedUrl).pathname + new URL(mine.feedUrl).search);
    assert.equal(feed.status, 200);
    assert.match(feed.headers.get('content-type')!, /^application\/atom\+xml/);
  });

  test('deleting a subscription removes it', async () => {
    const mine = (await (await post({ watch: { trendingTop20: true } })).json()) as Json;
    const deleted = await app.get(`/api/alerts/subscriptions/${mine.id}`, { method: 'DELETE', headers: auth() });
    assert.equal(deleted.status, 204);
    assert.equal((await app.get(`/api/alerts/subscriptions/${mine.id}`, { headers: auth() })).status, 404);
  });

  test('the alerts page lists and creates subscriptions for the key given in its form', async () => {
    const form = (fields: Record<string, string | string[]>) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) params.append(k, one);
      return app.get('/alerts', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: params.toString(),
      });
    };
    assert.equal((await app.get('/alerts')).status, 200);
    assert.equal((await form({ key: 'sigsk_wrong', action: 'list' })).status, 401);
    const created = await form({
      key: otherKey,
      action: 'create',
      label: 'From <the> page',
      sectors: ['robotics', 'gaming'],
      contributorGrowth: '30',
    });
    assert.equal(created.status, 200);
    const html = await created.text();
    assert.match(html, /From &#60;the&#62; page/);
    assert.match(html, /sectors: robotics, gaming; contributor growth crossing 30%/);
    const list = (await (await app.get('/api/alerts/subscriptions', { headers: auth(otherKey) })).json()) as Json;
    assert.deepEqual(list.subscriptions[0].watch, {
      sectors: ['robotics', 'gaming'],
      thresholds: { contributorGrowth: 30 },
    });
  });
});

describe('webhook URLs pointing inside the network are refused unless the operator allows them', () => {
  let app: TestApp;
  let key: string;

  before(async () => {
    app = await startTestApp({ ALERTS_SECRET });
    key = (await issueKey(app.service.store.db, { credits: 1, reason: 'test' })).key;
  });
  after(() => app.close());

  for (const url of [
    'http://127.0.0.1:8080/hook',
    'http://10.1.2.3/hook',
    'http://192.168.0.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://localhost:3000/hook',
  ]) {
    test(`refuses ${url}`, async () => {
      const response = await app.get('/api/alerts/subscriptions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ watch: { trendingTop20: true }, webhookUrl: url }),
      });
      assert.equal(response.status, 422);
      assert.match(response.headers.get('content-type')!, PROBLEM);
      assert.match(((await response.json()) as Json).detail, /private, loopback, link-local or reserved/);
    });
  }

  test('e-mail delivery is refused on a server without SMTP', async () => {
    const response = await app.get('/api/alerts/subscriptions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ watch: { trendingTop20: true }, email: 'a@example.com' }),
    });
    assert.equal(response.status, 422);
  });
});
