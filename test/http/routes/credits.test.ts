import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { issueKey, revokeKey } from '../../../src/payments/keys.js';
import { creditState, ledgerTotals } from '../../../src/payments/ledger.js';
import { metricValue } from '../../helpers/metrics.js';
import { DeepSignal } from '../../../src/schemas/deep-signal.js';
import { openHoldsSettled } from '../../helpers/holds.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { startTestService, type TestService } from '../../helpers/service.js';

type Json = Record<string, any>;
const DEEP_SIGNAL_KEYS = [
  'found',
  'name',
  'sector',
  'stage',
  'stageSource',
  'geography',
  'signalType',
  'signalStrength',
  'signalEvidence',
  'signalFinding',
  'collection',
  'collectionNote',
  'scores',
  'rank',
  'thesis',
  'evidence',
  'comparables',
  'history',
  'charged',
];
const UNTRACKED = 'Qzxv Nonexistent Holdings';

describe('paid Deep Signal and credits routes', () => {
  let svc: TestApp;
  let tracked: string;

  before(async () => {
    svc = await startTestApp();
    tracked = svc.service.holder.current!.bySector.get('robotics')![3]!.startup.name;
  });
  after(() => svc.close());

  const newKey = async (credits: number) => issueKey(svc.service.store.db, { credits, reason: 'test' });
  const call = (key: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    svc.get('/api/agent/deep-signal', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const balanceOf = async (accountId: string) => (await creditState(svc.service.store.db, accountId))!.balance;

  test('no key → 401 with WWW-Authenticate: Bearer, as problem+json', async () => {
    const res = await call(undefined, { name: tracked });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate')!, /^Bearer realm="signal-service"$/);
    assert.match(res.headers.get('content-type')!, /^application\/problem\+json/);
    assert.equal(res.headers.get('x-credits-balance'), null);
    assert.equal(((await res.json()) as Json).status, 401);
  });

  test('malformed, unknown and revoked keys → 401 invalid_token', async () => {
    const revoked = await newKey(5);
    await revokeKey(svc.service.store.db, revoked.id);
    const unknown = `sigsk_${'A'.repeat(43)}`;
    for (const authorization of [
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      'Bearer',
      'Bearer not-a-key',
      `Bearer ${unknown}`,
      `Bearer ${revoked.key}`,
    ]) {
      const res = await call(undefined, { name: tracked }, { authorization });
      assert.equal(res.status, 401, authorization);
      assert.match(res.headers.get('www-authenticate')!, /^Bearer /);
      const text = await res.text();
      assert.ok(!text.includes(revoked.key), 'the key is never echoed');
    }
    assert.equal(await balanceOf(revoked.accountId), 5);
  });

  test('a tracked startup → 200 DeepSignal, exactly 1 credit consumed, X-Credits-Balance', async () => {
    const key = await newKey(3);
    const res = await call(key.key, { name: tracked });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-credits-balance'), '2');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const body = (await res.json()) as Json;
    assert.deepEqual(Object.keys(body), DEEP_SIGNAL_KEYS);
    DeepSignal.parse(body);
    assert.equal(body.name, tracked);
    assert.equal(body.charged, 1);
    assert.equal(await balanceOf(key.accountId), 2);
    assert.deepEqual(await ledgerTotals(svc.service.store.db, key.accountId), {
      granted: 3,
      charged: 1,
      charges: 1,
      entries: 2,
    });
  });

  test('without an Idempotency-Key the charge is held until the answer is delivered, then stands (no hold left open)', async () => {
    const key = await newKey(2);
    const res = await call(key.key, { name: tracked });
    assert.equal(res.status, 200);
    await res.text();
    assert.equal(await openHoldsSettled(svc.service.store.db, key.accountId), 0);
    assert.equal(await balanceOf(key.accountId), 1);
    assert.deepEqual(await ledgerTotals(svc.service.store.db, key.accountId), {
      granted: 2,
      charged: 1,
      charges: 1,
      entries: 2,
    });
  });

  test('an untracked startup → 200 {found:false, charged:0}, nothing consumed', async () => {
    const key = await newKey(3);
    const res = await call(key.key, { name: UNTRACKED });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-credits-balance'), '3');
    assert.equal(await res.text(), '{"found":false,"charged":0}');
    assert.equal(await balanceOf(key.accountId), 3);
  });

  test('no credit left for a tracked startup → 402 with X-Credits-Balance 0', async () => {
    const key = await newKey(0);
    const res = await call(key.key, { name: tracked });
    assert.equal(res.status, 402);
    assert.equal(res.headers.get('x-credits-balance'), '0');
    assert.match(res.headers.get('content-type')!, /^application\/problem\+json/);
    assert.equal(((await res.json()) as Json).status, 402);
  });

  test('decision: a miss with 0 credits is 200 {found:false, charged:0}, not 402', async () => {
    const key = await newKey(0);
    const res = await call(key.key, { name: UNTRACKED });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-credits-balance'), '0');
    assert.deepEqual(await res.json(), { found: false, charged: 0 });
  });

  test('hostile bodies → 4xx with X-Credits-Balance, nothing consumed', async () => {
    const key = await newKey(4);
    const cases: [string, string, string?][] = [
      ['null', 'null'],
      ['a number', '42'],
      ['an array', JSON.stringify([{ name: tracked }])],
      ['a string', JSON.stringify(tracked)],
      ['an empty object', '{}'],
      ['an empty name', '{"name":""}'],
      ['a 10 KB name', JSON.stringify({ name: 'a'.repeat(10_240) })],
      ['a 101-character name', JSON.stringify({ name: 'a'.repeat(101) })],
      ['a numeric name', '{"name":5}'],
      ['a null name', '{"name":null}'],
      ['an extra field', JSON.stringify({ name: tracked, credits: 100 })],
      ['invalid JSON', '{"name": "abc'],
      ['an empty body', ''],
      ['a wrong content type', JSON.stringify({ name: tracked }), 'text/plain'],
      ['form encoding', `name=${encodeURIComponent(tracked)}`, 'application/x-www-form-urlencoded'],
    ];
    for (const [what, body, type] of cases) {
      const res = await call(key.key, body, type ? { 'content-type': type } : {});
      assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status}`);
      assert.equal(res.headers.get('x-credits-balance'), '4', what);
      await res.arrayBuffer();
    }
    assert.equal(await balanceOf(key.accountId), 4);
  });

  test('credits_charged_total counts charged calls (plain and with Idempotency-Key), not misses or replays', async () => {
    const charged = () => metricValue('credits_charged_total');
    const { key } = await newKey(10);
    const before = await charged();
    assert.equal((await call(key, { name: tracked })).status, 200);
    assert.equal((await call(key, { name: UNTRACKED })).status, 200);
    assert.equal((await call(key, { name: tracked }, { 'idempotency-key': 'metrics-1' })).status, 200);
    assert.equal((await call(key, { name: tracked }, { 'idempotency-key': 'metrics-1' })).status, 200);
    assert.equal(await charged(), before + 2);
  });

  test('GET /api/account/credits answers the credit state fields exactly', async () => {
    const key = await newKey(10);
    const before = await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key.key}` } });
    assert.equal(before.status, 200);
    assert.equal(before.headers.get('x-credits-balance'), '10');
    assert.deepEqual(await before.json(), {
      balance: 10,
      purchased: 10,
      consumed: 0,
      lastConsumedAt: null,
      purchaseUrl: `${svc.url}/agents/credits`,
    });
    await (await call(key.key, { name: tracked })).arrayBuffer();
    const state = (await (
      await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key.key}` } })
    ).json()) as Json;
    assert.deepEqual(Object.keys(state), ['balance', 'purchased', 'consumed', 'lastConsumedAt', 'purchaseUrl']);
    assert.equal(state.balance, 9);
    assert.equal(state.consumed, 1);
    assert.ok(!Number.isNaN(Date.parse(state.lastConsumedAt)));
  });

  test('the Bearer scheme is case-insensitive', async () => {
    const key = await newKey(2);
    for (const scheme of ['bearer', 'BEARER']) {
      const res = await svc.get('/api/account/credits', { headers: { authorization: `${scheme} ${key.key}` } });
      assert.equal(res.status, 200, scheme);
      await res.arrayBuffer();
    }
  });

  test('a key not separated from the scheme by exactly one space → 401 invalid_token', async () => {
    const key = await newKey(2);
    for (const authorization of [`Bearer  ${key.key}`, `Bearer\t${key.key}`, `Bearer ${key.key} extra`]) {
      const res = await svc.get('/api/account/credits', { headers: { authorization } });
      assert.equal(res.status, 401, JSON.stringify(authorization));
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="signal-service", error="invalid_token"');
      await res.arrayBuffer();
    }
  });

  test('GET /api/account/credits without a key → 401', async () => {
    const res = await svc.get('/api/account/credits');
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate')!, /^Bearer/);
  });

  test('Idempotency-Key: a retry returns the first answer byte for byte and is not charged again', async () => {
    const key = await newKey(5);
    const first = await call(key.key, { name: tracked }, { 'idempotency-key': 'retry-1' });
    const firstBody = await first.text();
    const again = await call(key.key, { name: tracked }, { 'idempotency-key': 'retry-1' });
    assert.equal(again.status, 200);
    assert.equal(await again.text(), firstBody);
    assert.equal(again.headers.get('x-credits-balance'), '4');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.equal(await balanceOf(key.accountId), 4);
  });

  test('Idempotency-Key reused with another body → 422, nothing consumed', async () => {
    const key = await newKey(5);
    await (await call(key.key, { name: tracked }, { 'idempotency-key': 'reuse' })).arrayBuffer();
    const res = await call(key.key, { name: UNTRACKED }, { 'idempotency-key': 'reuse' });
    assert.equal(res.status, 422);
    assert.equal(await balanceOf(key.accountId), 4);
  });

  test('Idempotency-Key: concurrent requests with one key → one charge, the same answer', async () => {
    const key = await newKey(5);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(key.key, { name: tracked }, { 'idempotency-key': 'concurrent' })),
    );
    const bodies = await Promise.all(answers.map((r) => r.text()));
    assert.deepEqual(
      answers.map((r) => r.status),
      Array(8).fill(200),
    );
    assert.equal(new Set(bodies).size, 1);
    assert.equal(await balanceOf(key.accountId), 4);
  });

  test('Idempotency-Key keys are per account, and a bad one → 400', async () => {
    const a = await newKey(2);
    const b = await newKey(2);
    await (await call(a.key, { name: tracked }, { 'idempotency-key': 'shared' })).arrayBuffer();
    await (await call(b.key, { name: tracked }, { 'idempotency-key': 'shared' })).arrayBuffer();
    assert.equal(await balanceOf(a.accountId), 1);
    assert.equal(await balanceOf(b.accountId), 1);
    const bad = await call(a.key, { name: tracked }, { 'idempotency-key': 'x'.repeat(256) });
    assert.equal(bad.status, 400);
    assert.equal(await balanceOf(a.accountId), 1);
  });

  test('the OpenAPI document names every DeepSignal field and the bearer scheme', async () => {
    const doc = (await (await svc.get('/api/openapi.json')).json()) as Json;
    assert.deepEqual(doc.components.securitySchemes.creditKey, {
      type: 'http',
      scheme: 'bearer',
      description: doc.components.securitySchemes.creditKey.description,
    });
    const op = doc.paths['/api/agent/deep-signal'].post;
    assert.deepEqual(op.security, [{ creditKey: [] }]);
    for (const status of ['200', '400', '401', '402', '422']) assert.ok(op.responses[status], status);
    const schema = doc.components.schemas.DeepSignal;
    assert.deepEqual(Object.keys(schema.properties), DEEP_SIGNAL_KEYS);
    for (const field of ['thesis', 'comparables', 'history', 'charged'])
      assert.ok(schema.properties[field].description, field);
    assert.ok(doc.paths['/api/account/credits'].get.security);
    assert.ok(doc.components.schemas.CreditState);
  });
});

describe('paid limits and made-up keys', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ RATE_LIMIT: 'on', RATE_LIMIT_PAID: '5/5' });
  });
  after(() => svc.close());

  const credits = (key: string) =>
    svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
  const madeUp = () => `sigsk_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;

  test('made-up keys spend the address budget, a valid key its own', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 1, reason: 'test' });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push(await credits(madeUp()));
    // Four of the address's five calls are spent; the valid key has five of its own.
    for (let i = 0; i < 5; i++) codes.push(await credits(key));
    assert.deepEqual(codes, [401, 401, 401, 401, 200, 200, 200, 200, 200]);
    assert.equal(await credits(key), 429);
  });

  test('a different made-up key on every call → 401 until the address budget is spent, then 429', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push(await credits(madeUp()));
    assert.deepEqual(codes, [401, 429, 429, 429, 429, 429, 429, 429]);
  });
});
