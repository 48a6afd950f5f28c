import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { renderedSender, sendRendered } from '../../../src/http/conditional.js';
import { registerCompression } from '../../../src/http/plugins/compression.js';
import { compressionIdle } from '../../../src/http/precompressed.js';
import { rendered } from '../../../src/snapshot/snapshot.js';

const big = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ name: `Startup ${i}`, score: i / 7 })));
const decode = (encoding: string | undefined, body: Buffer) =>
  (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body).toString();

describe('compression', () => {
  const entity = rendered(big, 'application/json; charset=utf-8');
  const tiny = rendered('{"found":false}', 'application/json; charset=utf-8');
  const png = rendered(Buffer.alloc(4096, 7), 'image/png');
  let app: FastifyInstance;

  before(async () => {
    app = Fastify();
    registerCompression(app);
    const send = renderedSender({ link: '<https://example.org/l>; rel="license"' });
    app.get('/hot', (request, reply) => send(request, reply, entity));
    app.get('/hot-tiny', (request, reply) => send(request, reply, tiny));
    app.get('/hot-png', (request, reply) => send(request, reply, png));
    app.get('/rendered', (request, reply) => sendRendered(request, reply, entity, { vary: 'accept' }));
    app.get('/dynamic', async (_request, reply) => {
      reply.header('etag', '"dyn"');
      return JSON.parse(big) as unknown;
    });
    app.get('/dynamic-tiny', async () => ({ ok: true }));
    app.get('/stream', (_request, reply) => {
      reply.header('content-type', 'application/x-ndjson');
      reply.send(Readable.from([big, '\n', big, '\n']));
    });
    app.get('/coded', (_request, reply) => {
      reply.header('content-type', 'text/plain').header('content-encoding', 'gzip').send(Buffer.from(big));
    });
    app.get('/events', (_request, reply) => {
      reply.header('content-type', 'text/event-stream').send(`data: ${big}\n\n`);
    });
    await app.ready();
  });
  after(() => app.close());

  for (const route of ['/hot', '/rendered']) {
    test(`${route}: a pre-rendered text body is sent Brotli-coded with its own ETag and Vary`, async () => {
      const res = await app.inject({ url: route, headers: { 'accept-encoding': 'gzip, br' } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], 'br');
      assert.equal(res.headers.etag, `${entity.etag.slice(0, -1)}-br"`);
      assert.match(String(res.headers.vary), /accept-encoding/i);
      assert.ok(res.rawPayload.length < entity.body.length / 3);
      assert.equal(decode('br', res.rawPayload), big);
      assert.equal(Number(res.headers['content-length']), res.rawPayload.length);
    });

    test(`${route}: gzip when only gzip is accepted, identity (still with Vary) when nothing is`, async () => {
      const gz = await app.inject({ url: route, headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.equal(gz.headers.etag, `${entity.etag.slice(0, -1)}-gzip"`);
      assert.equal(decode('gzip', gz.rawPayload), big);
      const plain = await app.inject({ url: route });
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers.etag, entity.etag);
      assert.match(String(plain.headers.vary), /accept-encoding/i);
      assert.equal(plain.body, big);
    });

    test(`${route}: 304 per coding: the coded tag is current for its coding only`, async () => {
      const brTag = `${entity.etag.slice(0, -1)}-br"`;
      const same = await app.inject({ url: route, headers: { 'accept-encoding': 'br', 'if-none-match': brTag } });
      assert.equal(same.statusCode, 304);
      assert.equal(same.headers.etag, brTag);
      assert.equal(same.body, '');
      const other = await app.inject({ url: route, headers: { 'accept-encoding': 'gzip', 'if-none-match': brTag } });
      assert.equal(other.statusCode, 200);
      assert.equal(other.headers['content-encoding'], 'gzip');
      // A client holding the identity representation still has a current one.
      const identity = await app.inject({
        url: route,
        headers: { 'accept-encoding': 'br', 'if-none-match': entity.etag },
      });
      assert.equal(identity.statusCode, 304);
      assert.equal(identity.headers.etag, entity.etag);
    });
  }

  test('the first response in a coding (compressed meanwhile) and later ones are byte for byte the same', async () => {
    const fresh = rendered(`${big} `, 'application/json; charset=utf-8');
    const send = renderedSender();
    const scoped = Fastify();
    registerCompression(scoped);
    scoped.get('/', (request, reply) => send(request, reply, fresh));
    try {
      const a = await scoped.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
      await compressionIdle();
      const b = await scoped.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
      assert.equal(a.headers['content-encoding'], 'br');
      assert.deepEqual(a.rawPayload, b.rawPayload);
      assert.deepEqual(a.headers, { ...b.headers, date: a.headers.date });
    } finally {
      await scoped.close();
    }
  });

  test('a first request whose coded body is not ready in time gets the identity body under its own tag', async () => {
    // About a megabyte of varied text: its Brotli 11 takes far longer than the wait allowed here.
    const words = Array.from({ length: 120_000 }, (_, i) => `w${(i * 7919) % 104_729}`).join(' ');
    const slow = rendered(words, 'text/plain; charset=utf-8');
    const send = renderedSender();
    const scoped = Fastify();
    registerCompression(scoped, { pendingWaitMs: 0 });
    scoped.get('/', (request, reply) => send(request, reply, slow));
    try {
      const first = await scoped.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['content-encoding'], undefined);
      assert.equal(first.headers.etag, slow.etag);
      assert.match(String(first.headers.vary), /accept-encoding/i);
      assert.equal(first.body, words);
      await compressionIdle();
      const later = await scoped.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
      assert.equal(later.headers['content-encoding'], 'br', 'the compression went on, and later requests get it');
      assert.equal(decode('br', later.rawPayload), words);
    } finally {
      await scoped.close();
    }
  });

  test('a small body, or a binary one, is sent as it is, without Vary', async () => {
    for (const url of ['/hot-tiny', '/hot-png', '/dynamic-tiny']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      assert.equal(res.headers['content-encoding'], undefined, url);
      assert.equal(res.headers.vary, undefined, url);
    }
  });

  test('a body built per request is coded, its ETag with it', async () => {
    const res = await app.inject({ url: '/dynamic', headers: { 'accept-encoding': 'br' } });
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(res.headers.etag, '"dyn-br"');
    assert.deepEqual(JSON.parse(decode('br', res.rawPayload)), JSON.parse(big));
  });

  test('a streamed body is coded as it streams', async () => {
    const res = await app.inject({ url: '/stream', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(decode('gzip', res.rawPayload), `${big}\n${big}\n`);
  });

  test('a body the route coded itself, and an event stream, are left alone', async () => {
    const coded = await app.inject({ url: '/coded', headers: { 'accept-encoding': 'br' } });
    assert.equal(coded.headers['content-encoding'], 'gzip');
    assert.equal(coded.body, big);
    const events = await app.inject({ url: '/events', headers: { 'accept-encoding': 'br' } });
    assert.equal(events.headers['content-encoding'], undefined);
  });

  test('a route that sets its own Vary keeps it beside Accept-Encoding', async () => {
    const res = await app.inject({ url: '/rendered', headers: { 'accept-encoding': 'br' } });
    assert.equal(res.headers.vary, 'accept, accept-encoding');
  });
});
