import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../../helpers/service.js';

describe('health routes', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
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
    const body = (await res.json()) as { status: string; database: string; period: string };
    assert.equal(body.status, 'ready');
    assert.equal(body.database, svc.storage.mode);
    assert.match(body.period, /^\d{4}-w\d{2}$/);
  });

  test('GET /readyz answers 503 problem+json once the database is gone', async () => {
    const other = await startTestService();
    await other.service.store.close();
    const res = await other.get('/readyz');
    assert.equal(res.status, 503);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    await other.service.app.close();
    await other.storage.cleanup();
  });
});
