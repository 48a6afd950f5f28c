import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { redisUrl } from '../../helpers/database.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

describe('health routes', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp();
  });
  after(() => svc.close());

  test('GET /healthz answers 200 {status: ok} while the process is alive', async () => {
    const res = await svc.get('/healthz');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
  });

  test('GET /readyz answers 200 with the database mode and the loaded period', async () => {
    const res = await svc.get('/readyz');
    assert.equal(res.status, 200);
    const body = (await res.json()) as { status: string; database: string; period: string; checks: string[] };
    assert.deepEqual(Object.keys(body), ['status', 'database', 'checks', 'period']);
    assert.equal(body.status, 'ready');
    assert.equal(body.database, svc.storage.mode);
    assert.match(body.period, /^\d{4}-w\d{2}$/);
  });

  test(
    'GET /readyz lists redis among its checks when REDIS_URL is set',
    { skip: !redisUrl && 'REDIS_URL not set' },
    async () => {
      const withRedis = await startTestApp({ REDIS_URL: redisUrl! });
      try {
        const body = (await (await withRedis.get('/readyz')).json()) as { checks: string[] };
        assert.deepEqual(body.checks, ['redis']);
      } finally {
        await withRedis.close();
      }
    },
  );

  test('GET /readyz answers 503 while a configured Redis does not answer', async () => {
    const unreachable = await startTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const res = await unreachable.get('/readyz');
      assert.equal(res.status, 503);
      assert.match(((await res.json()) as { detail: string }).detail, /not reachable/);
      assert.equal((await unreachable.get('/api/signals.json')).status, 200);
    } finally {
      await unreachable.close();
    }
  });

  test('GET /readyz answers 503 problem+json once the database is gone', async () => {
    const other = await startTestApp();
    await other.service.store.close();
    const res = await other.get('/readyz');
    assert.equal(res.status, 503);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    await other.service.app.close();
    await other.storage.cleanup();
  });
});
