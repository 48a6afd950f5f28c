import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Stripe from 'stripe';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { FakeSmtp } from '../../helpers/fake-smtp.js';
import { FakeStripe } from '../../helpers/fake-stripe.js';
import { metricValue } from '../../helpers/metrics.js';

const WEBHOOK_SECRET = 'whsec_test_secret_for_signal_service';
const stripe = new Stripe('sk_test_signing_only');
let eventCounter = 0;

interface SessionFields {
  id: string;
  payment_status?: string;
  email?: string | null;
}

function event(type: string, session: SessionFields, id = `evt_test_${++eventCounter}`): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        mode: 'payment',
        payment_status: session.payment_status ?? 'paid',
        customer_email: null,
        customer_details: session.email === null ? null : { email: session.email ?? 'buyer@example.org' },
      },
    },
  });
}

const until = async (check: () => boolean | Promise<boolean>, ms = 8000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('card checkout, webhook and key delivery', () => {
  let svc: TestApp;
  let fakeStripe: FakeStripe;
  let smtp: FakeSmtp;
  let sessionNo = 0;
  const newSessionId = () => `cs_test_webhook_${++sessionNo}_${Date.now()}`;

  before(async () => {
    fakeStripe = await FakeStripe.start();
    smtp = await FakeSmtp.start();
    svc = await startTestApp({
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_PRICE_ID: 'price_pack100',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: fakeStripe.url,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Signal Service <keys@signals.test>',
      MAIL_RETRY_MS: '200',
    });
  });
  after(async () => {
    await svc.close();
    await fakeStripe.close();
    await smtp.close();
  });

  const deliver = (
    payload: string,
    signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
  ) =>
    svc.get('/api/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
  const accountsFor = async (sessionId: string) =>
    (
      await svc.service.store.db
        .selectFrom('checkout_deliveries')
        .select('account_id')
        .where('session_id', '=', sessionId)
        .execute()
    ).length;
  const grantsFor = async (sessionId: string) =>
    (await svc.service.store.db.selectFrom('credit_ledger').select('id').where('reference', '=', sessionId).execute())
      .length;
  const reveal = async (sessionId: string) => (await svc.get(`/agents/credits/success?session_id=${sessionId}`)).text();

  test('the page sells the pack from the pricing constants and posts to checkout', async () => {
    const res = await svc.get('/agents/credits');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    const html = await res.text();
    assert.match(html, /100 Deep Signal credits for 19\.00 EUR/);
    assert.match(html, /<form method="post" action="\/api\/checkout\/sessions">/);
  });

  test('a form post starts a Stripe Checkout Session for the configured price and redirects to it', async () => {
    const res = await svc.get('/api/checkout/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=buyer%40example.org',
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location')!, /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const sent = fakeStripe.requests.at(-1)!;
    assert.equal(sent.path, '/v1/checkout/sessions');
    assert.equal(sent.authorization, 'Bearer sk_test_local');
    assert.equal(sent.form.get('mode'), 'payment');
    assert.equal(sent.form.get('line_items[0][price]'), 'price_pack100');
    assert.equal(sent.form.get('line_items[0][quantity]'), '1');
    assert.equal(sent.form.get('customer_email'), 'buyer@example.org');
    assert.equal(sent.form.get('success_url'), `${svc.url}/agents/credits/success?session_id={CHECKOUT_SESSION_ID}`);
  });

  test('a JSON request gets 201 {id, url}; a bad e-mail → 400 and no Stripe call', async () => {
    const res = await svc.get('/api/checkout/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 201);
    const body = (await res.json()) as { id: string; url: string };
    assert.match(body.id, /^cs_test_/);
    const calls = fakeStripe.requests.length;
    const bad = await svc.get('/api/checkout/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'not an address' }),
    });
    assert.equal(bad.status, 400);
    assert.equal(fakeStripe.requests.length, calls);
  });

  test('a paid session creates one key with 100 credits, shown once on the success page and e-mailed', async () => {
    const sessionId = newSessionId();
    const res = await deliver(event('checkout.session.completed', { id: sessionId, email: 'paid@example.org' }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true, outcome: 'fulfilled' });
    const first = await reveal(sessionId);
    const key = /sigsk_[A-Za-z0-9_-]{43}/.exec(first)?.[0];
    assert.ok(key, 'the key is on the page');
    const state = (await (
      await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { balance: number };
    assert.equal(state.balance, 100);
    const second = await reveal(sessionId);
    assert.ok(!second.includes(key));
    assert.match(second, /already shown/);
    await until(() => smtp.messages.some((m) => m.to.includes('paid@example.org')));
    const mail = smtp.messages.find((m) => m.to.includes('paid@example.org'))!;
    assert.ok(mail.raw.includes(key), 'the e-mail carries the key');
    // The SMTP server has the message a moment before the sender records it as sent.
    const outboxRow = () =>
      svc.service.store.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('reference', '=', sessionId)
        .executeTakeFirstOrThrow();
    await until(async () => (await outboxRow()).sent_at !== null);
    const row = await svc.service.store.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('reference', '=', sessionId)
      .executeTakeFirstOrThrow();
    assert.equal(row.secret_ciphertext, null, 'the sealed copy is erased once sent');
    assert.ok(row.sent_at);
  });

  test('a replayed event changes nothing', async () => {
    const sessionId = newSessionId();
    const payload = event('checkout.session.completed', { id: sessionId });
    const settledBefore = await metricValue('payments_total{method="card",outcome="settled"');
    assert.equal(((await (await deliver(payload)).json()) as { outcome: string }).outcome, 'fulfilled');
    assert.equal(((await (await deliver(payload)).json()) as { outcome: string }).outcome, 'duplicate-event');
    assert.equal(await metricValue('payments_total{method="card",outcome="settled"'), settledBefore + 1);
    assert.equal(await accountsFor(sessionId), 1);
    assert.equal(await grantsFor(sessionId), 1);
  });

  test('out of order: an unpaid completion, then async success, then a late completion → exactly one key', async () => {
    const sessionId = newSessionId();
    const outcome = async (payload: string) => ((await (await deliver(payload)).json()) as { outcome: string }).outcome;
    assert.equal(
      await outcome(event('checkout.session.completed', { id: sessionId, payment_status: 'unpaid' })),
      'not-paid',
    );
    assert.equal(await accountsFor(sessionId), 0);
    assert.equal(await outcome(event('checkout.session.async_payment_succeeded', { id: sessionId })), 'fulfilled');
    assert.equal(await outcome(event('checkout.session.completed', { id: sessionId })), 'already-fulfilled');
    assert.equal(await accountsFor(sessionId), 1);
    assert.equal(await grantsFor(sessionId), 1);
  });

  test('concurrent deliveries of two events for one session → exactly one key', async () => {
    const sessionId = newSessionId();
    await Promise.all([
      deliver(event('checkout.session.completed', { id: sessionId })),
      deliver(event('checkout.session.async_payment_succeeded', { id: sessionId })),
      deliver(event('checkout.session.completed', { id: sessionId })),
    ]);
    assert.equal(await accountsFor(sessionId), 1);
    assert.equal(await grantsFor(sessionId), 1);
  });

  test('a bad, missing or stale signature, or a tampered body → 400 and nothing created', async () => {
    const sessionId = newSessionId();
    const payload = event('checkout.session.completed', { id: sessionId });
    const good = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const cases = [
      stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' }),
      stripe.webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      }),
      'garbage',
      '',
    ];
    for (const signature of cases) {
      const res = await deliver(payload, signature);
      assert.equal(res.status, 400, signature);
    }
    const tampered = await deliver(payload.replace('"paid"', '"paid" '), good);
    assert.equal(tampered.status, 400);
    const noHeader = await svc.get('/api/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    assert.equal(noHeader.status, 400);
    assert.equal(await accountsFor(sessionId), 0);
  });

  test('a failing mail server: the key is kept and sent on a retry', async () => {
    smtp.failing = true;
    const sessionId = newSessionId();
    await deliver(event('checkout.session.completed', { id: sessionId, email: 'retry@example.org' }));
    const outbox = () =>
      svc.service.store.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('reference', '=', sessionId)
        .executeTakeFirstOrThrow();
    await until(async () => (await outbox()).attempts >= 1 && (await outbox()).last_error !== null);
    assert.equal((await outbox()).sent_at, null);
    assert.ok((await outbox()).secret_ciphertext, 'the sealed key is kept for the retry');
    smtp.failing = false;
    await until(() => smtp.messages.some((m) => m.to.includes('retry@example.org')), 15_000);
    const key = /sigsk_[A-Za-z0-9_-]{43}/.exec(await reveal(sessionId))![0];
    assert.ok(smtp.messages.find((m) => m.to.includes('retry@example.org'))!.raw.includes(key));
  });

  test('the success page escapes what it shows and refuses a malformed session id', async () => {
    const sessionId = newSessionId();
    await deliver(event('checkout.session.completed', { id: sessionId, email: 'x@<img src=x onerror=alert(1)>.org' }));
    const html = await reveal(sessionId);
    assert.ok(!html.includes('<img'));
    assert.ok(html.includes('&#60;img'));
    assert.equal((await svc.get('/agents/credits/success?session_id=%3Cscript%3E')).status, 400);
    const pending = await reveal(newSessionId());
    assert.match(pending, /http-equiv="refresh"/);
  });
});

describe('card checkout without Stripe configured', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp();
  });
  after(() => svc.close());

  test('the page says card checkout is unavailable', async () => {
    const html = await (await svc.get('/agents/credits')).text();
    assert.match(html, /Card checkout is unavailable/);
    assert.ok(!html.includes('action="/api/checkout/sessions"'), 'no purchase form');
  });

  test('the checkout API, the success page and the webhook answer 503', async () => {
    const post = (path: string) =>
      svc.get(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal((await post('/api/checkout/sessions')).status, 503);
    assert.equal((await post('/api/webhooks/stripe')).status, 503);
    assert.equal((await svc.get('/agents/credits/success?session_id=cs_test_1')).status, 503);
  });
});
