import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

/** The shipped files hold no result and no outcome, and the test app serves the synthetic demo. */
describe('the backtest on the API and for agents', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp();
  });
  after(() => svc.close());

  test('/api/v1/backtest.json says no backtest has been run on this data, and why, without figures', async () => {
    const res = await svc.get('/api/v1/backtest.json');
    assert.equal(res.status, 200);
    const body = (await res.json()) as Json;
    assert.equal(body.status, 'not-run');
    assert.match(body.summary, /^No backtest has been run on this data yet/);
    assert.ok(body.reasons.some((r: string) => /synthetic demo dataset/.test(r)));
    assert.equal(body.spans, undefined);
  });

  test('/api/v1/backtest.json is served with a strong ETag that revalidates', async () => {
    const first = await svc.get('/api/v1/backtest.json');
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"/);
    const again = await svc.get('/api/v1/backtest.json', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  test('the OpenAPI document describes the route', async () => {
    const doc = (await (await svc.get('/api/openapi.json')).json()) as Json;
    assert.equal(doc.paths['/api/v1/backtest.json'].get.operationId, 'getBacktest');
  });

  test('the get_backtest tool answers the same report as the route', async () => {
    const response = await svc.get('/api/agent/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'get_backtest', arguments: {} }),
    });
    assert.equal(response.status, 200);
    const result = (await response.json()) as Json;
    assert.deepEqual(result.report, await (await svc.get('/api/v1/backtest.json')).json());
    assert.equal(result.url, `${svc.url}/backtest`);
  });

  test('the /backtest page says no backtest has been run on this data yet, and draws no chart', async () => {
    const res = await svc.get('/backtest');
    assert.equal(res.status, 200);
    const page = await res.text();
    assert.match(page, /No backtest has been run on this data yet/);
    assert.doesNotMatch(page, /class="band"/);
  });
});
