import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.js';
import { issueKey } from '../src/payments/keys.js';
import { parsePeriodSlug, shiftPeriod } from '../src/domain/periods.js';
import { createLogger } from '../src/logger.js';
import { startService, type RunningService } from '../src/service.js';
import { createTestStorage, postgresUrl, redisUrl, type TestStorage } from './helpers/database.js';

const run = promisify(execFile);
const skip = (!postgresUrl || !redisUrl) && 'needs DATABASE_URL and REDIS_URL (real PostgreSQL and Redis)';

/** Starts one more instance of the service on the shared PostgreSQL database and Redis. */
async function startInstance(databaseUrl: string, env: Record<string, string>): Promise<RunningService> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sigsvc-instance-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    PERIOD_POLL_MS: '200',
    ...env,
  });
  const service = await startService(config, createLogger(config.server));
  const close = service.close;
  service.close = () => close().finally(() => fs.rm(dataDir, { recursive: true, force: true }));
  return service;
}

describe('two instances on one PostgreSQL and one Redis', { skip }, () => {
  const prefix = `sigsvc-test:${randomBytes(6).toString('hex')}`;
  let storage: TestStorage;
  let a: RunningService;
  let b: RunningService;
  before(async () => {
    storage = await createTestStorage({ contents: 'demo' });
    const env = { REDIS_URL: redisUrl!, RATE_LIMIT: 'on', RATE_LIMIT_SIGNAL: '3/3', RATE_LIMIT_REDIS_PREFIX: prefix };
    a = await startInstance(storage.databaseUrl!, env);
    b = await startInstance(storage.databaseUrl!, env);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await storage?.cleanup();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  test('they draw on one rate-limit budget per client', async () => {
    const ask = (s: RunningService) => fetch(`${s.address}/api/signal?company=acme`).then((r) => r.status);
    assert.deepEqual([await ask(a), await ask(b), await ask(a)], [200, 200, 200]);
    assert.equal(await ask(b), 429);
    assert.equal(await ask(a), 429);
    const redis = new Redis(redisUrl!);
    try {
      assert.ok((await redis.keys(`${prefix}:signal:*`)).length > 0, 'the counters live in Redis');
    } finally {
      redis.disconnect();
    }
  });

  test('they share one credit ledger: calls through both charge one balance, each exactly once', async () => {
    const issued = await issueKey(a.store.db, { credits: 10, reason: 'test' });
    const name = a.holder.current!.startups[0]!.startup.name;
    const call = (s: RunningService) =>
      fetch(`${s.address}/api/agent/deep-signal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${issued.key}` },
        body: JSON.stringify({ name }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { charged?: number } }));
    const answers = await Promise.all([a, b, a, b, a, b].map(call));
    assert.deepEqual(
      answers.map((r) => [r.status, r.body.charged]),
      Array.from({ length: 6 }, () => [200, 1]),
    );
    const credits = async (s: RunningService) =>
      (await (
        await fetch(`${s.address}/api/account/credits`, { headers: { authorization: `Bearer ${issued.key}` } })
      ).json()) as { balance: number; consumed: number };
    assert.deepEqual(await credits(a), await credits(b));
    assert.equal((await credits(b)).balance, 4);
    assert.equal((await credits(a)).consumed, 6);
  });

  test('a period published by another process is served by both within PERIOD_POLL_MS', async () => {
    const slugOf = async (s: RunningService) =>
      ((await (await fetch(`${s.address}/api/signals.json`)).json()) as { meta: { period: { slug: string } } }).meta
        .period.slug;
    const current = await slugOf(a);
    assert.equal(await slugOf(b), current);
    const next = shiftPeriod(parsePeriodSlug(current), 1).slug;
    await run(process.execPath, ['--import', 'tsx', 'test/helpers/publish-demo-period.ts', next, '30'], {
      env: { ...process.env, DATA_DIR: os.tmpdir(), DATABASE_URL: storage.databaseUrl! },
    });
    const published = Date.now();
    let served: string[] = [];
    while (Date.now() - published < 10_000) {
      served = [await slugOf(a), await slugOf(b)];
      if (served.every((s) => s === next)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(served, [next, next]);
    // Loading the new snapshot takes a moment beyond the poll interval itself.
    assert.ok(Date.now() - published < 5_000, `took ${Date.now() - published} ms`);
  });
});
