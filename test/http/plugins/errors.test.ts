import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compressionIdle } from '../../../src/http/precompressed.js';
import { startTestService, type TestService } from '../../helpers/service.js';

describe('HTTP semantics', () => {
  let svc: TestService;
  let getPaths: string[];
  before(async () => {
    svc = await startTestService();
    const doc = (await (await svc.get('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    getPaths = Object.entries(doc.paths)
      .filter(([p, ops]) => ops.get && !p.includes('{'))
      .map(([p]) => p);
  });
  after(() => svc.close());

  test('a known path with the wrong method is 405 problem+json with Allow', async () => {
    for (const method of ['DELETE', 'PUT', 'PATCH', 'POST']) {
      const res = await svc.get('/api/signals.json', { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    }
  });

  test('a path with parameters answers 405 too, and a POST-only path names POST', async () => {
    assert.equal((await svc.get('/api/markets/anything', { method: 'DELETE' })).status, 405);
    const res = await svc.get('/api/nlweb', { method: 'GET' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST, OPTIONS');
  });

  test('an unknown path is still 404', async () => {
    assert.equal((await svc.get('/api/nothing-here', { method: 'DELETE' })).status, 404);
    assert.equal((await svc.get('/api/nothing-here')).status, 404);
  });

  test('a JSON route sent another content type is 415', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await svc.get('/api/nlweb', { method: 'POST', headers: { 'content-type': type }, body: 'query=x' });
      assert.equal(res.status, 415, type);
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    }
  });

  test('a body over the route limit is 413', async () => {
    const res = await svc.get('/api/nlweb', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'x'.repeat(70 * 1024) }),
    });
    assert.equal(res.status, 413);
  });

  test('HEAD answers wherever GET does, with the same status and headers and no body', async () => {
    assert.ok(getPaths.length > 20, `${getPaths.length} GET paths`);
    for (const path of getPaths) {
      // The first request for a body in a coding may get it uncoded, under the identity tag, while its coded copy is
      // compressed (at most 250 ms); GET and HEAD are compared once it is ready.
      await (await svc.get(path)).arrayBuffer();
      await compressionIdle();
      const get = await svc.get(path);
      await get.arrayBuffer();
      const head = await svc.get(path, { method: 'HEAD' });
      assert.equal(head.status, get.status, path);
      assert.equal(head.headers.get('content-type'), get.headers.get('content-type'), path);
      assert.equal(head.headers.get('etag'), get.headers.get('etag'), path);
      assert.equal((await head.arrayBuffer()).byteLength, 0, path);
    }
  });

  test('every response carries X-Request-Id, errors included', async () => {
    for (const [path, method] of [
      ['/api/signals.json', 'GET'],
      ['/api/signal', 'GET'],
      ['/nowhere', 'GET'],
      ['/api/signals.json', 'DELETE'],
    ] as const) {
      const res = await svc.get(path, { method });
      assert.match(res.headers.get('x-request-id') ?? '', /^\S+$/, `${method} ${path}`);
    }
  });
});
