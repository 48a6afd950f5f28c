import assert from 'node:assert/strict';
import http, { type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { representations } from '../../src/http/conditional.js';
import { installFastPath } from '../../src/http/fast-path.js';
import { compressionIdle, variant } from '../../src/http/precompressed.js';
import { rendered } from '../../src/snapshot/snapshot.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function request(url: string, method: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

/** The headers that differ between any two responses: the date and the request id's counter. */
function comparable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { date: _date, 'x-request-id': id, ...rest } = headers;
  assert.match(String(id), /^[A-Za-z0-9_-]+-[0-9a-z]+$/);
  return rest;
}

describe('fast path', () => {
  let app: TestApp;

  before(async () => {
    // With the limiter on, as served: the snapshot JSON is an unlimited static surface either way.
    app = await startTestApp({ RATE_LIMIT: 'on' }, { listen: true });
    const snapshot = app.service.holder.published();
    await Promise.all([variant(snapshot.signalsJson, 'br'), variant(snapshot.signalsJson, 'gzip')]);
    await compressionIdle();
  });
  after(() => app.close());

  const etag = () => app.service.holder.published().signalsJson.etag;
  const cases: [string, string, () => Record<string, string>][] = [
    ['GET, no Accept-Encoding', 'GET', () => ({})],
    ['GET, Brotli accepted', 'GET', () => ({ 'accept-encoding': 'gzip, deflate, br' })],
    ['GET, gzip accepted', 'GET', () => ({ 'accept-encoding': 'gzip' })],
    ['HEAD, Brotli accepted', 'HEAD', () => ({ 'accept-encoding': 'br' })],
    ['GET, If-None-Match the identity tag', 'GET', () => ({ 'if-none-match': etag() })],
    [
      'GET, If-None-Match the Brotli tag',
      'GET',
      () => ({ 'accept-encoding': 'br', 'if-none-match': `${etag().slice(0, -1)}-br"` }),
    ],
    [
      'GET, If-None-Match the Brotli tag, gzip accepted',
      'GET',
      () => ({ 'accept-encoding': 'gzip', 'if-none-match': `${etag().slice(0, -1)}-br"` }),
    ],
    ['GET, CORS request', 'GET', () => ({ origin: 'https://example.org', 'accept-encoding': 'br' })],
  ];
  for (const path of ['/api/signals.json', '/api/v1/signals.json']) {
    for (const [name, method, headers] of cases) {
      test(`${path}, ${name}: the same status, headers and bytes as the route`, async () => {
        // A query string takes the normal path (routing, hooks, the route's handler).
        const fast = await request(`${app.url}${path}`, method, headers());
        const normal = await request(`${app.url}${path}?parity`, method, headers());
        assert.equal(fast.status, normal.status);
        assert.deepEqual(comparable(fast.headers), comparable(normal.headers));
        assert.deepEqual(fast.body, normal.body);
      });
    }
  }
});

describe('installFastPath', () => {
  const entity = rendered(JSON.stringify({ startups: Array.from({ length: 100 }, (_, i) => i) }), 'application/json');
  let server: http.Server;
  let url: string;
  let frameworkCalls = 0;

  before(async () => {
    server = http.createServer((_req, res) => {
      frameworkCalls++;
      res.writeHead(299).end('framework');
    });
    installFastPath(
      server,
      [{ path: '/fast', entity: () => entity, representations: representations({ 'x-frame-options': 'DENY' }) }],
      () => 'id-1',
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('answers its paths itself, with the prepared headers and the request id', async () => {
    const before = frameworkCalls;
    const res = await request(`${url}/fast`, 'GET', {});
    assert.equal(frameworkCalls, before);
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-request-id'], 'id-1');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers.etag, entity.etag);
    assert.deepEqual(res.body, entity.body);
  });

  test('leaves other paths, queries, other methods and bodies not compressed yet to the framework', async () => {
    for (const [path, method, headers] of [
      ['/other', 'GET', {}],
      ['/fast?x=1', 'GET', {}],
      ['/fast', 'POST', {}],
    ] as const) {
      const res = await request(`${url}${path}`, method, headers);
      assert.equal(res.status, 299, `${method} ${path}`);
    }
    const fresh = rendered(JSON.stringify({ other: Array.from({ length: 300 }, (_, i) => i) }), 'application/json');
    const local = http.createServer((_req, res) => res.writeHead(299).end());
    installFastPath(local, [{ path: '/fast', entity: () => fresh, representations: representations() }], () => 'id');
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const port = (local.address() as { port: number }).port;
      const res = await request(`http://127.0.0.1:${port}/fast`, 'GET', { 'accept-encoding': 'br' });
      assert.equal(res.status, 299);
    } finally {
      await new Promise<void>((resolve) => local.close(() => resolve()));
    }
  });
});
