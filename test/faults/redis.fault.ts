/**
 * Fault: Redis frozen (SIGSTOP: its socket open, nothing answered), then thawed. Two instances share the suite's own
 * PostgreSQL and Redis with rate limiting on. What must hold: while it is frozen no request waits on it for more than
 * a bounded time (the limiter's command timeout, once, then the breaker decides from memory), no 5xx; once it
 * answers again the limits are counted in Redis again, without a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import {
  missingBinaries,
  sleep,
  startInstance,
  startPostgres,
  startRedis,
  timed,
  until,
  type Instance,
  type Postgres,
  type RedisServer,
} from './harness.js';

const FROZEN_MS = 6_000;
/** The bound asked for: a request never waits longer than this on a frozen Redis. */
const BOUND_MS = 1_000;

describe('Redis frozen', { skip: missingBinaries() }, () => {
  let pg: Postgres;
  let redis: RedisServer;
  let instances: Instance[] = [];

  before(async () => {
    pg = await startPostgres();
    redis = await startRedis();
    const env = {
      DATABASE_URL: await pg.createDatabase('redisfaults'),
      REDIS_URL: redis.url,
      RATE_LIMIT: 'on',
      RATE_LIMIT_FREE: '100000/100000',
      RATE_LIMIT_SIGNAL: '100000/100000',
      TRUST_PROXY: 'loopback',
      MAX_CONNECTIONS_PER_ADDRESS: '10000',
      RATE_LIMIT_REDIS_PREFIX: 'faults',
    };
    instances = [await startInstance(env)];
    instances.push(await startInstance(env));
  });
  after(async () => {
    for (const i of instances) await i.kill();
    await redis?.close();
    await pg?.close();
  });

  test(`frozen: every request answered within ${BOUND_MS} ms, none 5xx; thawed: counted in Redis again`, async (t) => {
    const ask = (i: number, address: string) =>
      timed(`${instances[i % 2]!.base}/api/signal?company=a`, { headers: { 'x-forwarded-for': address } });
    // Warm: both instances count in Redis.
    for (let i = 0; i < 4; i++) assert.equal((await ask(i, '198.51.100.1')).status, 200);
    redis.freeze();
    const results: { status: number | string; ms: number; busy: boolean }[] = [];
    const until_ = Date.now() + FROZEN_MS;
    // A busy address (16 requests at a time) and other clients (one request at a time, a new address each).
    const busy = Array.from({ length: 16 }, async (_, w) => {
      while (Date.now() < until_) {
        const r = await ask(w, '198.51.100.7');
        results.push({ status: r.status, ms: r.ms, busy: true });
      }
    });
    const others = (async () => {
      for (let n = 0; Date.now() < until_; n++) {
        const r = await ask(n, `203.0.113.${n % 250}`);
        results.push({ status: r.status, ms: r.ms, busy: false });
        await sleep(20);
      }
    })();
    await Promise.all([...busy, others]);
    redis.thaw();
    const max = (busy: boolean) => Math.round(Math.max(...results.filter((r) => r.busy === busy).map((r) => r.ms)));
    const p99 = (busy: boolean) => {
      const ms = results
        .filter((r) => r.busy === busy)
        .map((r) => r.ms)
        .sort((a, b) => a - b);
      return Math.round(ms[Math.floor(ms.length * 0.99)] ?? 0);
    };
    const bad = results.filter((r) => r.status !== 200);
    t.diagnostic(
      `frozen ${FROZEN_MS / 1000} s: ${results.length} requests, ${bad.length} not 200; slowest (p99): busy address ${max(true)} (${p99(true)}) ms, other clients ${max(false)} (${p99(false)}) ms`,
    );
    assert.deepEqual(bad, []);
    assert.ok(max(true) < BOUND_MS && max(false) < BOUND_MS, `slowest ${max(true)} / ${max(false)} ms`);

    // Thawed: a new address is counted in Redis again (the breaker closed), on both instances.
    const client = new Redis(redis.url);
    try {
      const counted = await until(
        async () => {
          const address = `192.0.2.${Math.floor(Math.random() * 250)}`;
          await ask(0, address);
          await ask(1, address);
          return (await client.keys(`faults:*${address}*`)).length;
        },
        (n) => n > 0,
        15_000,
      );
      assert.ok(counted > 0, 'counting in Redis again');
    } finally {
      client.disconnect();
    }
  });
});
