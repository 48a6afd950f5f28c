import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip } from '../../../src/http/routes/dataset.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/** A GET without fetch's automatic decompression: status, headers and the bytes as sent. */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('GET /api/dataset.jsonl from memory', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  test('a client accepting gzip gets the same lines compressed, under its own ETag', async () => {
    const plain = await rawGet(`${svc.url}/api/dataset.jsonl`);
    const zipped = await rawGet(`${svc.url}/api/dataset.jsonl`, { 'accept-encoding': 'br, gzip;q=0.8' });
    assert.equal(plain.status, 200);
    assert.equal(zipped.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers['vary'], 'accept-encoding');
    assert.ok(zipped.body.length * 3 < plain.body.length, `${zipped.body.length} of ${plain.body.length} bytes`);
    assert.ok(gunzipSync(zipped.body).equals(plain.body));
    assert.notEqual(zipped.headers.etag, plain.headers.etag);
    const revalidated = await rawGet(`${svc.url}/api/dataset.jsonl`, {
      'accept-encoding': 'gzip',
      'if-none-match': String(zipped.headers.etag),
    });
    assert.equal(revalidated.status, 304);
  });

  test('every download of a period is the one body rendered for it', async () => {
    const [a, b] = await Promise.all([
      rawGet(`${svc.url}/api/dataset.jsonl`),
      rawGet(`${svc.url}/api/v1/dataset.jsonl`),
    ]);
    assert.ok(a.body.equals(b.body));
    assert.equal(Number(a.headers['content-length']), a.body.length);
  });

  test('Accept-Encoding: gzip is read as RFC 9110 writes it', () => {
    assert.equal(acceptsGzip('gzip'), true);
    assert.equal(acceptsGzip('deflate, GZIP;q=0.5'), true);
    assert.equal(acceptsGzip('*'), true);
    assert.equal(acceptsGzip('gzip;q=0'), false);
    assert.equal(acceptsGzip('identity'), false);
    assert.equal(acceptsGzip(undefined), false);
  });
});

describe('the export budget', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ RATE_LIMIT: 'on', RATE_LIMIT_EXPORT: '2/2' });
  });
  after(() => svc.close());

  test('downloads past RATE_LIMIT_EXPORT are 429, and the other routes keep their own budget', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await svc.get('/api/dataset.jsonl');
      await res.arrayBuffer();
      codes.push(res.status);
    }
    assert.deepEqual(codes, [200, 200, 429]);
    assert.equal((await svc.get('/api/ask?q=robotics')).status, 200);
  });
});
