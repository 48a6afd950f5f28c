import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { renderedSender } from '../../src/http/conditional.js';
import { rendered } from '../../src/snapshot/snapshot.js';

describe('renderedSender', () => {
  const first = rendered('{"a":1}', 'application/json; charset=utf-8');
  const second = rendered('a,b\r\n1,2\r\n', 'text/csv; charset=utf-8');
  let app: FastifyInstance;

  before(async () => {
    app = Fastify();
    const send = renderedSender(
      { link: '<https://example.org/l>; rel="license"', 'x-frame-options': 'DENY' },
      'no-cache',
    );
    app.get('/first', (request, reply) => send(request, reply, first));
    app.get('/second', (request, reply) => send(request, reply, second));
    await app.ready();
  });
  after(() => app.close());

  test('sends the body with its ETag, content type, cache policy and the route headers', async () => {
    const res = await app.inject({ url: '/first' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '{"a":1}');
    assert.equal(res.headers.etag, first.etag);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers.link, '<https://example.org/l>; rel="license"');
    assert.equal(res.headers['x-frame-options'], 'DENY');
  });

  test('keeps each body its own headers on the same route', async () => {
    await app.inject({ url: '/first' });
    const res = await app.inject({ url: '/second' });
    assert.equal(res.headers.etag, second.etag);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.body, 'a,b\r\n1,2\r\n');
  });

  test('answers 304 without a body when If-None-Match names the ETag among others, weak or strong', async () => {
    for (const header of [first.etag, `W/${first.etag}`, `"other", ${first.etag}`, '*']) {
      const res = await app.inject({ url: '/first', headers: { 'if-none-match': header } });
      assert.equal(res.statusCode, 304, header);
      assert.equal(res.body, '');
      assert.equal(res.headers.etag, first.etag);
      assert.equal(res.headers.link, '<https://example.org/l>; rel="license"');
    }
  });

  test('answers 200 when If-None-Match names another ETag', async () => {
    const res = await app.inject({ url: '/first', headers: { 'if-none-match': second.etag } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '{"a":1}');
  });
});
