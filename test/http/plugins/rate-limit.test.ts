import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { redisUrl } from '../../helpers/database.js';
import Fastify, { type FastifyInstance, type FastifyRequest, type InjectOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadConfig } from '../../../src/config.js';
import { compileTrust } from '../../../src/http/client-address.js';
import { registerErrorHandling } from '../../../src/http/plugins/errors.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import {
  createBudgets,
  paidKey,
  type LimiterStore,
  registerRateLimit,
  reservationChunk,
  ReservingLimiter,
  routeClass,
} from '../../../src/http/plugins/rate-limit.js';

/** A small server with the real limiter and error handling, and one route per class. */
async function appWith(
  env: Record<string, string>,
  store: Partial<LimiterStore> = { keyIsValid: async () => true },
): Promise<FastifyInstance> {
  const config = loadConfig(env);
  const app = Fastify({ trustProxy: compileTrust(config.server.trustProxy) });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, {});
  registerRateLimit(app, config, { prefix: 'test', ...store });
  app.get('/free', () => 'ok');
  app.get('/other-free', () => 'ok');
  app.get('/api/signal', { config: { rateLimit: 'signal' } }, () => 'ok');
  app.get('/api/receipts/:username', { config: { rateLimit: 'receipts' } }, () => 'ok');
  app.post('/paid', { config: { rateLimit: 'paid' } }, () => 'ok');
  app.get('/static.json', () => 'ok');
  await app.ready();
  return app;
}

async function statuses(app: FastifyInstance, n: number, init: InjectOptions) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await app.inject(init)).statusCode);
  return out;
}

const count = (list: number[], status: number) => list.filter((s) => s === status).length;

describe('route classes', () => {
  test('a GET route without the option is free; a declared class wins', () => {
    assert.equal(routeClass({ method: 'GET', url: '/api/ask' }), 'free');
    assert.equal(routeClass({ method: 'GET', url: '/api/signal', config: { rateLimit: 'signal' } }), 'signal');
    assert.equal(routeClass({ method: 'POST', url: '/api/nlweb' }), 'free');
  });

  test('static .json, .jsonl, .txt and .xml surfaces, health probes and preflight are unlimited', () => {
    for (const url of ['/api/signals.json', '/api/v1/dataset.jsonl', '/llms.txt', '/feed.xml', '/healthz', '/readyz'])
      assert.equal(routeClass({ method: 'GET', url }), 'unlimited', url);
    assert.equal(routeClass({ method: 'OPTIONS', url: '*' }), 'unlimited');
  });

  test('a .json route that takes a query or a path parameter is not static: free', () => {
    assert.equal(routeClass({ method: 'GET', url: '/api/diligence.json', schema: { querystring: {} } }), 'free');
    assert.equal(routeClass({ method: 'GET', url: '/api/x/:id.json' }), 'free');
  });

  test('an unknown class is refused when the route is registered', () => {
    assert.throws(() => routeClass({ method: 'GET', url: '/x', config: { rateLimit: 'gold' as 'free' } }), /rateLimit/);
  });
});

describe('budgets (spec defaults)', () => {
  test('free: 120 requests at once pass (60 a minute plus the reserve), the 121st is 429', async () => {
    const app = await appWith({});
    const got = await statuses(app, 121, { method: 'GET', url: '/free' });
    assert.equal(count(got.slice(0, 120), 200), 120);
    assert.equal(got[120], 429);
  });

  test('signal: 60 at once, then 429', async () => {
    const app = await appWith({});
    const got = await statuses(app, 61, { method: 'GET', url: '/api/signal' });
    assert.equal(count(got, 200), 60);
    assert.equal(got[60], 429);
  });

  test('receipts: 20 at once, then 429', async () => {
    const app = await appWith({});
    const got = await statuses(app, 21, { method: 'GET', url: '/api/receipts/octocat' });
    assert.equal(count(got, 200), 20);
    assert.equal(got[20], 429);
  });

  test('limits come from the environment', async () => {
    const app = await appWith({ RATE_LIMIT_SIGNAL: '2/3' });
    assert.deepEqual(await statuses(app, 4, { method: 'GET', url: '/api/signal' }), [200, 200, 200, 429]);
  });

  test('routes of one class share the budget; another class has its own', async () => {
    const app = await appWith({ RATE_LIMIT_FREE: '2/2' });
    assert.deepEqual(await statuses(app, 2, { method: 'GET', url: '/free' }), [200, 200]);
    assert.equal((await app.inject({ method: 'GET', url: '/other-free' })).statusCode, 429);
    assert.equal((await app.inject({ method: 'GET', url: '/api/signal' })).statusCode, 200);
  });

  test('unlimited static surfaces never answer 429 and carry no rate-limit headers', async () => {
    const app = await appWith({ RATE_LIMIT_FREE: '1/1' });
    const got = await statuses(app, 50, { method: 'GET', url: '/static.json' });
    assert.equal(count(got, 200), 50);
    assert.equal((await app.inject({ method: 'GET', url: '/static.json' })).headers['ratelimit'], undefined);
  });

  test('RATE_LIMIT=off lets everything through', async () => {
    const app = await appWith({ RATE_LIMIT: 'off', RATE_LIMIT_SIGNAL: '1/1' });
    assert.equal(count(await statuses(app, 10, { method: 'GET', url: '/api/signal' }), 200), 10);
  });
});

describe('the 429 answer', () => {
  test('problem+json with Retry-After in whole seconds and the RateLimit-Policy / RateLimit headers', async () => {
    const app = await appWith({ RATE_LIMIT_SIGNAL: '1/2' });
    const first = await app.inject({ method: 'GET', url: '/api/signal' });
    assert.equal(first.headers['ratelimit-policy'], '"signal";q=1;w=60, "signal-burst";q=1;w=600');
    assert.match(String(first.headers['ratelimit']), /^"signal";r=0;t=\d+$/);
    const second = await app.inject({ method: 'GET', url: '/api/signal' });
    assert.match(String(second.headers['ratelimit']), /^"signal-burst";r=0;t=\d+$/);
    const refused = await app.inject({ method: 'GET', url: '/api/signal' });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8');
    const retryAfter = String(refused.headers['retry-after']);
    assert.match(retryAfter, /^\d+$/);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, retryAfter);
    assert.equal(refused.headers['ratelimit'], `"signal-burst";r=0;t=${retryAfter}`);
    const body = refused.json();
    assert.equal(body.status, 429);
    assert.equal(body.title, 'Too Many Requests');
    assert.equal(body.instance, '/api/signal');
  });
});

describe('who a client is', () => {
  test('paid routes count per credit-pack key: another key has its own budget', async () => {
    const app = await appWith({ RATE_LIMIT_PAID: '2/2' });
    const a = { method: 'POST' as const, url: '/paid', headers: { authorization: 'Bearer key-a' } };
    const b = { method: 'POST' as const, url: '/paid', headers: { authorization: 'Bearer key-b' } };
    assert.deepEqual(await statuses(app, 3, a), [200, 200, 429]);
    assert.deepEqual(await statuses(app, 2, b), [200, 200]);
  });

  test('paid budgets are keyed by the SHA-256 of a valid key, never the key itself; by address without a key', () => {
    const digest = createHash('sha256').update('secret-key').digest('hex');
    const withKey = { headers: { authorization: 'Bearer secret-key' }, ip: '192.0.2.1' } as unknown as FastifyRequest;
    const withoutKey = { headers: {}, ip: '192.0.2.1' } as unknown as FastifyRequest;
    assert.equal(paidKey(withKey, true), `k:${digest}`);
    assert.equal(paidKey(withoutKey, true), 'ip:192.0.2.1');
  });

  test('a key that opens nothing is counted by the address, not by its digest', () => {
    const withKey = { headers: { authorization: 'Bearer made-up' }, ip: '192.0.2.1' } as unknown as FastifyRequest;
    assert.equal(paidKey(withKey, false), 'ip:192.0.2.1');
  });

  test('paid budgets read the key by the one Bearer rule: a header it refuses counts by address', () => {
    const digest = createHash('sha256').update('secret-key').digest('hex');
    const request = (authorization: string) =>
      ({ headers: { authorization }, ip: '192.0.2.1' }) as unknown as FastifyRequest;
    assert.equal(paidKey(request('bearer secret-key'), true), `k:${digest}`);
    for (const authorization of ['Bearer  secret-key', 'Bearer\tsecret-key', 'Bearer secret key']) {
      assert.equal(paidKey(request(authorization), true), 'ip:192.0.2.1', JSON.stringify(authorization));
    }
  });

  test('made-up keys, each different, spend the address budget: refused once it is spent', async () => {
    const app = await appWith({ RATE_LIMIT_PAID: '3/3' }, { keyIsValid: async () => false });
    const got = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.inject({
          method: 'POST',
          url: '/paid',
          headers: { authorization: `Bearer sigsk_${randomBytes(32).toString('base64url')}` },
        }),
      ),
    );
    const codes = got.map((r) => r.statusCode);
    assert.equal(count(codes, 200), 3);
    assert.equal(count(codes, 429), 5);
    // The address's budget is the one spent: a call without a key is refused too.
    assert.equal((await app.inject({ method: 'POST', url: '/paid' })).statusCode, 429);
  });

  test('once an address is refused, its further keys are refused without being looked up', async () => {
    let lookups = 0;
    const app = await appWith(
      { RATE_LIMIT_PAID: '2/2' },
      {
        keyIsValid: async () => {
          lookups++;
          return false;
        },
      },
    );
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/paid',
        headers: { authorization: `Bearer sigsk_${randomBytes(32).toString('base64url')}` },
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) assert.match(String(res.headers['retry-after']), /^\d+$/);
    }
    assert.deepEqual(codes.slice(0, 3), [200, 200, 429]);
    assert.equal(count(codes, 429), 18);
    assert.equal(lookups, 3);
  });

  test('without a way to check keys, no key is trusted: paid calls count by address', async () => {
    const app = await appWith({ RATE_LIMIT_PAID: '2/2' }, {});
    const a = { method: 'POST' as const, url: '/paid', headers: { authorization: 'Bearer key-a' } };
    const b = { method: 'POST' as const, url: '/paid', headers: { authorization: 'Bearer key-b' } };
    assert.deepEqual([...(await statuses(app, 2, a)), ...(await statuses(app, 1, b))], [200, 200, 429]);
  });

  test('a failed key look-up lets the call through to its authentication (the limiter never answers 5xx)', async () => {
    const app = await appWith(
      { RATE_LIMIT_PAID: '2/2' },
      { keyIsValid: () => Promise.reject(new Error('database down')) },
    );
    const res = await app.inject({ method: 'POST', url: '/paid', headers: { authorization: 'Bearer key-a' } });
    assert.equal(res.statusCode, 200);
  });

  test('without TRUST_PROXY a spoofed X-Forwarded-For does not change the client address', async () => {
    const app = await appWith({ RATE_LIMIT_FREE: '2/2' });
    const got: number[] = [];
    for (let i = 0; i < 3; i++) {
      got.push(
        (await app.inject({ method: 'GET', url: '/free', headers: { 'x-forwarded-for': `203.0.113.${i}` } }))
          .statusCode,
      );
    }
    assert.deepEqual(got, [200, 200, 429]);
  });

  test('behind a trusted proxy (TRUST_PROXY=loopback) each forwarded client has its own budget', async () => {
    const app = await appWith({ RATE_LIMIT_FREE: '1/1', TRUST_PROXY: 'loopback' });
    const ask = (client: string) =>
      app.inject({ method: 'GET', url: '/free', headers: { 'x-forwarded-for': client } }).then((r) => r.statusCode);
    assert.deepEqual([await ask('203.0.113.1'), await ask('203.0.113.2'), await ask('203.0.113.1')], [200, 200, 429]);
  });

  test('a peer outside the trusted list cannot spoof X-Forwarded-For', async () => {
    const app = await appWith({ RATE_LIMIT_FREE: '1/1', TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' });
    const ask = (client: string) =>
      app
        .inject({ method: 'GET', url: '/free', headers: { 'x-forwarded-for': client }, remoteAddress: '198.51.100.9' })
        .then((r) => r.statusCode);
    assert.deepEqual([await ask('203.0.113.1'), await ask('203.0.113.2')], [200, 429]);
  });

  test('a trusted hop count takes the client from X-Forwarded-For', async () => {
    const app = await appWith({ RATE_LIMIT_FREE: '1/1', TRUST_PROXY: '1' });
    const ask = (client: string) =>
      app
        .inject({ method: 'GET', url: '/free', headers: { 'x-forwarded-for': client }, remoteAddress: '198.51.100.9' })
        .then((r) => r.statusCode);
    assert.deepEqual([await ask('203.0.113.1'), await ask('203.0.113.2')], [200, 200]);
  });
});

/** A memory limiter standing in for the shared one, counting the round trips a reservation costs. */
class CountingLimiter extends RateLimiterMemory {
  calls = 0;
  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.calls++;
    return super.consume(key, points, options);
  }
}

describe('reservations of a shared budget', () => {
  test('requests that arrive while a reservation is on its way wait for it: one round trip per chunk', async () => {
    const inner = new CountingLimiter({ points: 1000, duration: 60 });
    const limiter = new ReservingLimiter(inner, 10);
    const answers = await Promise.all(Array.from({ length: 50 }, () => limiter.consume('client')));
    assert.equal(answers.length, 50);
    assert.equal(inner.calls, 5);
    assert.equal((await inner.get('client'))!.consumedPoints, 50);
  });

  test('when a whole reservation no longer fits, the last points go one at a time and then the key is refused', async () => {
    const inner = new CountingLimiter({ points: 25, duration: 60 });
    const limiter = new ReservingLimiter(inner, 10);
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => limiter.consume('client')));
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 25);
    assert.equal((await inner.get('client'))!.consumedPoints, 25 + 15);
  });
});

describe('reservations renewed ahead of time (large budgets)', () => {
  test('a busy client gets the next chunk reserved while half of the current one is left', async () => {
    const inner = new CountingLimiter({ points: 10_000, duration: 60 });
    const limiter = new ReservingLimiter(inner, 20);
    for (let i = 0; i < 100; i++) await limiter.consume('client');
    // 100 points in chunks of 20, plus at most one chunk reserved ahead.
    assert.ok(inner.calls >= 5 && inner.calls <= 6, `calls: ${inner.calls}`);
    assert.ok((await inner.get('client'))!.consumedPoints <= 120);
  });

  test('reserving ahead never lets more than the shared budget through', async () => {
    const inner = new CountingLimiter({ points: 50, duration: 60 });
    const limiter = new ReservingLimiter(inner, 20);
    let allowed = 0;
    for (let i = 0; i < 80; i++) {
      await limiter.consume('client').then(
        () => allowed++,
        () => {},
      );
    }
    assert.equal(allowed, 50);
  });
});

describe('shared budgets in Redis', { skip: !redisUrl && 'REDIS_URL not set' }, () => {
  const prefix = `sigsvc-test:${randomBytes(6).toString('hex')}`;
  const connections: Redis[] = [];
  after(async () => {
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    for (const c of connections) c.disconnect();
  });

  test('two instances taking points in reservations spend exactly the shared budget, no more', async () => {
    const config = loadConfig({ RATE_LIMIT_FREE: '60/60' });
    const instances = await Promise.all(
      [0, 1].map(async () => {
        const redis = new Redis(redisUrl!);
        connections.push(redis);
        await once(redis, 'ready');
        return createBudgets(config.rateLimits, { redis, prefix });
      }),
    );
    let allowed = 0;
    for (let i = 0; i < 100; i++) {
      if ((await instances[i % 2]!.free.decide('198.51.100.7')).allowed) allowed++;
    }
    assert.equal(allowed, 60);
    assert.equal(reservationChunk(60), 6);
  });

  test('two instances deciding many concurrent requests still spend exactly the shared budget', async () => {
    const config = loadConfig({ RATE_LIMIT_FREE: '60/60' });
    const instances = await Promise.all(
      [0, 1].map(async () => {
        const redis = new Redis(redisUrl!);
        connections.push(redis);
        await once(redis, 'ready');
        return createBudgets(config.rateLimits, { redis, prefix: `${prefix}:concurrent` });
      }),
    );
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => instances[i % 2]!.free.decide('198.51.100.8')),
    );
    assert.equal(decisions.filter((d) => d.allowed).length, 60);
  });

  test('made-up keys create no counter of their own in Redis, only the address budget', async () => {
    const redis = new Redis(redisUrl!);
    connections.push(redis);
    await once(redis, 'ready');
    const own = `${prefix}:keys`;
    const app = await appWith({ RATE_LIMIT_PAID: '5/5' }, { redis, prefix: own, keyIsValid: async () => false });
    for (let i = 0; i < 30; i++) {
      await app.inject({
        method: 'POST',
        url: '/paid',
        headers: { authorization: `Bearer sigsk_${randomBytes(32).toString('base64url')}` },
      });
    }
    const keys = await redis.keys(`${own}:*`);
    assert.ok(keys.length > 0);
    assert.ok(
      keys.every((k) => k.includes('ip:')),
      keys.join(', '),
    );
  });
});
