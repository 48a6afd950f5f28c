import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../../helpers/service.js';

describe('CORS', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ RATE_LIMIT: 'on' });
  });
  after(() => svc.close());

  test('public endpoints allow any origin and expose the rate-limit and request-id headers', async () => {
    const res = await svc.get('/api/signal?company=a', { headers: { origin: 'https://elsewhere.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    for (const h of ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id']) assert.ok(exposed.includes(h), h);
  });

  test('paid routes allow any origin without credentials: the Bearer key, not a cookie, authorises', async () => {
    const res = await svc.get('/api/account/credits', { headers: { origin: 'https://elsewhere.example' } });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
  });

  test('a preflight for a paid call allows the Authorization header', async () => {
    const res = await svc.get('/api/agent/deep-signal', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    assert.equal(res.status, 204);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /authorization/i);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
  });
});
