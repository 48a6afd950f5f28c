import assert from 'node:assert/strict';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.js';
import { issueKey } from '../src/payments/keys.js';
import { creditState } from '../src/payments/ledger.js';
import { createLogger } from '../src/logger.js';
import { openStore } from '../src/store/database.js';
import { renderMetrics } from '../src/metrics.js';
import { startService, type RunningService } from '../src/service.js';
import { createTestStorage, postgresUrl, redisUrl, type TestStorage } from './helpers/database.js';
import { serveChild } from './helpers/serve-child.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function start(storage: TestStorage, env: Record<string, string>): Promise<RunningService> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: storage.dataDir,
    LOG_LEVEL: 'silent',
    PERIOD_POLL_MS: '200',
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    ...env,
  });
  return startService(config, createLogger(config.server));
}

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await what();
  while (!ok(value) && Date.now() < deadline) {
    await sleep(100);
    value = await what();
  }
  return value;
}

describe('PostgreSQL cut under load', { skip: !postgresUrl && 'needs DATABASE_URL (real PostgreSQL)' }, () => {
  let storage: TestStorage;
  let proxy: TcpProxy;
  let svc: RunningService;
  before(async () => {
    storage = await createTestStorage({ contents: 'demo' });
    proxy = await startTcpProxy(storage.databaseUrl!);
    svc = await start(storage, {
      DATABASE_URL: proxy.url,
      RATE_LIMIT: 'off',
      DATABASE_CONNECT_TIMEOUT_MS: '500',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    });
  });
  after(async () => {
    await svc?.close();
    await proxy?.close();
    await storage?.cleanup();
  });

  test('free reads, the dataset export included, stay 100% OK, routes that need the database answer 503 with Retry-After, and recover', async () => {
    const status = (p: string) =>
      fetch(`${svc.address}${p}`).then(async (r) => {
        await r.arrayBuffer();
        return r;
      });
    // The export is rendered once per period, from memory afterwards (the warm-up builds it; this waits for it).
    assert.equal((await status('/api/dataset.jsonl')).status, 200);
    const needsDbPath = `/api/account/credits?probe=1`;
    const needsDbInit = { headers: { authorization: `Bearer sigsk_${'A'.repeat(43)}` } };
    const needingDb = () =>
      fetch(`${svc.address}${needsDbPath}`, needsDbInit).then(async (r) => {
        await r.arrayBuffer();
        return r;
      });
    proxy.cut();
    const free: number[] = [];
    let stop = false;
    const load = Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        while (!stop) {
          free.push((await status(i % 2 ? '/api/signals.json' : '/api/signal?company=a')).status);
        }
      }),
    );
    const exported = await status('/api/dataset.jsonl');
    assert.equal(exported.status, 200, 'the dataset export answers from memory while the database is cut');
    const needsDb = await needingDb();
    assert.equal(needsDb.status, 503);
    assert.equal(needsDb.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.match(needsDb.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal((await status('/readyz')).status, 503);
    await sleep(500);
    proxy.restore();
    const back = await until(
      () => needingDb().then((r) => r.status),
      (s) => s === 401,
    );
    stop = true;
    await load;
    assert.equal(back, 401, 'the database route recovered without a restart');
    assert.ok(free.length > 20, `${free.length} free reads`);
    assert.deepEqual(
      free.filter((s) => s !== 200),
      [],
    );
    assert.equal((await status('/readyz')).status, 200);
  });

  test('paid calls answer 503 while it is cut, and no credit is lost or charged twice once it is back', async () => {
    const issued = await issueKey(svc.store.db, { credits: 10, reason: 'test' });
    const name = svc.holder.current!.startups[0]!.startup.name;
    const call = () =>
      fetch(`${svc.address}/api/agent/deep-signal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${issued.key}` },
        body: JSON.stringify({ name }),
      }).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() }));
    const before = [await call(), await call()];
    proxy.cut();
    const during = await Promise.all([call(), call(), call()]);
    proxy.restore();
    const afterwards = [await until(call, (r) => r.status === 200)];
    afterwards.push(await call());
    assert.deepEqual(
      before.map((r) => r.status),
      [200, 200],
    );
    for (const r of during) {
      assert.equal(r.status, 503);
      assert.match(r.retryAfter ?? '', /^\d+$/);
    }
    assert.deepEqual(
      afterwards.map((r) => [r.status, (r.body as { charged: number }).charged]),
      [
        [200, 1],
        [200, 1],
      ],
    );
    const state = await creditState(svc.store.db, issued.accountId);
    assert.equal(state!.consumed, 4, 'four answered calls, four credits');
    assert.equal(state!.balance, 6);
  });
});

describe('Redis cut', { skip: !redisUrl && 'needs REDIS_URL (real Redis)' }, () => {
  const prefix = `sigsvc-test:${randomBytes(6).toString('hex')}`;
  let storage: TestStorage;
  let proxy: TcpProxy;
  let svc: RunningService;
  before(async () => {
    storage = await createTestStorage({ contents: 'demo' });
    proxy = await startTcpProxy(redisUrl!);
    svc = await start(storage, {
      REDIS_URL: proxy.url,
      RATE_LIMIT: 'on',
      RATE_LIMIT_SIGNAL: '2/2',
      RATE_LIMIT_REDIS_PREFIX: prefix,
    });
  });
  after(async () => {
    await svc?.close();
    await proxy?.close();
    await storage?.cleanup();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const fallbacks = async () => {
    const line = (await renderMetrics()).body.split('\n').find((l) => l.startsWith('rate_limit_fallback_total'));
    return Number(line?.split(' ').at(-1) ?? 0);
  };
  const ask = () => fetch(`${svc.address}/api/signal?company=a`).then((r) => r.status);

  test('limits fall back to local memory (never a 5xx) and return to Redis when it is back', async () => {
    assert.deepEqual([await ask(), await ask(), await ask()], [200, 200, 429]);
    const redis = new Redis(redisUrl!);
    try {
      assert.ok((await redis.keys(`${prefix}:*`)).length > 0, 'counted in Redis');
      proxy.cut();
      const before = await fallbacks();
      // Local memory has its own budget: the same limits apply, from this instance's count.
      assert.deepEqual([await ask(), await ask(), await ask()], [200, 200, 429]);
      assert.ok((await fallbacks()) > before, 'the fallback is counted');
      proxy.restore();
      // Back on Redis: its budget (already spent before the cut) applies again.
      await redis.del(...(await redis.keys(`${prefix}:*`)));
      const after = await until(ask, (s) => s === 200);
      assert.equal(after, 200);
      const keys = await until(
        () => redis.keys(`${prefix}:*`),
        (k) => k.length > 0,
      );
      assert.ok(keys.length > 0, 'counting in Redis again');
    } finally {
      redis.disconnect();
    }
  });
});

describe('SIGTERM under load', () => {
  test('every response that started completes whole, paid calls are charged exactly when answered, exit 0', async () => {
    const storage = await createTestStorage({ contents: 'demo' });
    const { child, base } = await serveChild({
      DATA_DIR: storage.dataDir,
      DATABASE_URL: storage.databaseUrl ?? '',
      REDIS_URL: '',
      RATE_LIMIT: 'off',
    });
    try {
      // A key with credits, written through the running server's database (the embedded one is shared via its socket).
      const writer = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 1 });
      const issued = await issueKey(writer.db, { credits: 1000, reason: 'test' });
      await writer.close();
      const signals = (await (await fetch(`${base}/api/signals.json`)).json()) as { trending: { name: string }[] };
      const paidInit = {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${issued.key}` },
        body: JSON.stringify({ name: signals.trending[0]!.name }),
      };
      let stop = false;
      const outcomes = { complete: 0, refused: 0, unavailable: 0, broken: 0, charged: 0 };
      const paths = ['/api/dataset.jsonl', '/api/signals.json', '/api/signal?company=a', '/api/agent/deep-signal'];
      const worker = async (i: number) => {
        const deadline = Date.now() + 60_000;
        while (!stop && Date.now() < deadline) {
          const p = paths[i % paths.length]!;
          let res: Response;
          try {
            // The export uncompressed: fetch's gzip decoding reports a body complete to its last byte as 'terminated'
            // when the server closes the connection right after it (as a stopping server does).
            res = await fetch(
              `${base}${p}`,
              p.includes('deep-signal') ? paidInit : { headers: { 'accept-encoding': 'identity' } },
            );
          } catch {
            outcomes.refused++; // the server no longer accepts: nothing was started
            await sleep(10);
            continue;
          }
          try {
            const text = await res.text();
            if (res.status === 503) outcomes.unavailable++;
            else if (res.status === 200) {
              if (p.endsWith('.jsonl'))
                text
                  .trimEnd()
                  .split('\n')
                  .forEach((l) => JSON.parse(l));
              else if (p.includes('deep-signal')) outcomes.charged += (JSON.parse(text) as { charged: number }).charged;
              else JSON.parse(text);
              outcomes.complete++;
            } else outcomes.broken++;
          } catch {
            outcomes.broken++; // a response cut short
          }
        }
      };
      const load = Promise.all(Array.from({ length: 16 }, (_, i) => worker(i)));
      await sleep(1500);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const code = await Promise.race([exited.then(([c]) => c), sleep(30_000).then(() => 'still running')]);
      stop = true;
      await load;
      assert.equal(code, 0);
      assert.ok(outcomes.complete > 10, JSON.stringify(outcomes));
      assert.equal(outcomes.broken, 0, JSON.stringify(outcomes));
      assert.ok(outcomes.charged > 0, JSON.stringify(outcomes));
      // The embedded database's owner has just exited: this process may have to host it, so allow a retry.
      let consumed: number | undefined;
      for (let attempt = 0; consumed === undefined && attempt < 3; attempt++) {
        try {
          const reader = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 1 });
          try {
            consumed = (await creditState(reader.db, issued.accountId))!.consumed;
          } finally {
            await reader.close();
          }
        } catch (err) {
          if (attempt === 2) throw err;
          await sleep(1000);
        }
      }
      assert.equal(consumed, outcomes.charged, 'every charge was answered, every answer charged once');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await storage.cleanup();
    }
  });
});
