import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';

/** A request without fetch's automatic decompression: status, headers and the bytes as sent. */
function rawRequest(method: string, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const rawGet = (url: string, headers: Record<string, string> = {}) => rawRequest('GET', url, headers);

describe('GET /api/dataset.jsonl from memory', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp({}, { snapshot: storedDemoPeriod, listen: true });
  });
  after(() => svc.close());

  test('a client that accepts no coding gets the lines themselves, with their Content-Length', async () => {
    const plain = await rawGet(`${svc.url}/api/dataset.jsonl`);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers['content-type'], 'application/x-ndjson; charset=utf-8');
    assert.equal(Number(plain.headers['content-length']), plain.body.length);
    const lines = plain.body.toString('utf8').trimEnd().split('\n');
    assert.ok(lines.length > 1000, `${lines.length} lines`);
    for (const line of lines) JSON.parse(line);
  });

  test('a client accepting Brotli and gzip gets the lines gzip-coded (the one coding held), under the gzip ETag', async () => {
    const plain = await rawGet(`${svc.url}/api/dataset.jsonl`);
    const coded = await rawGet(`${svc.url}/api/dataset.jsonl`, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(coded.headers['content-encoding'], 'gzip');
    assert.equal(coded.headers['vary'], 'accept-encoding');
    assert.equal(coded.headers.etag, `${String(plain.headers.etag).slice(0, -1)}-gzip"`);
    assert.ok(coded.body.length * 8 < plain.body.length, `${coded.body.length} of ${plain.body.length} bytes`);
    assert.ok(gunzipSync(coded.body).equals(plain.body));
  });

  test('a client accepting Brotli only gets the lines themselves, under the identity ETag', async () => {
    const plain = await rawGet(`${svc.url}/api/dataset.jsonl`);
    const sent = await rawGet(`${svc.url}/api/dataset.jsonl`, { 'accept-encoding': 'br' });
    assert.equal(sent.headers['content-encoding'], undefined);
    assert.equal(sent.headers.etag, plain.headers.etag);
    assert.ok(sent.body.equals(plain.body));
  });

  test('a client accepting gzip only gets the lines gzip-coded, under the gzip ETag', async () => {
    const plain = await rawGet(`${svc.url}/api/dataset.jsonl`);
    const coded = await rawGet(`${svc.url}/api/dataset.jsonl`, { 'accept-encoding': 'gzip' });
    assert.equal(coded.headers['content-encoding'], 'gzip');
    assert.equal(coded.headers.etag, `${String(plain.headers.etag).slice(0, -1)}-gzip"`);
    assert.ok(gunzipSync(coded.body).equals(plain.body));
  });

  test('the gzip copy is compressed once per period: every download sends the same coded bytes', async () => {
    for (const coding of ['gzip', 'br, gzip']) {
      const [a, b] = await Promise.all([
        rawGet(`${svc.url}/api/dataset.jsonl`, { 'accept-encoding': coding }),
        rawGet(`${svc.url}/api/v1/dataset.jsonl`, { 'accept-encoding': coding }),
      ]);
      assert.ok(a.body.equals(b.body), coding);
    }
  });

  test('If-None-Match with the tag of the coding the client gets is a 304, in each coding', async () => {
    for (const coding of ['br', 'gzip', 'identity']) {
      const first = await rawGet(`${svc.url}/api/dataset.jsonl`, { 'accept-encoding': coding });
      const again = await rawGet(`${svc.url}/api/dataset.jsonl`, {
        'accept-encoding': coding,
        'if-none-match': String(first.headers.etag),
      });
      assert.equal(again.status, 304, coding);
      assert.equal(again.body.length, 0);
    }
  });

  test('a HEAD gets the headers of the GET and no body', async () => {
    const get = await rawGet(`${svc.url}/api/dataset.jsonl`);
    const head = await rawRequest('HEAD', `${svc.url}/api/dataset.jsonl`);
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(head.headers.etag, get.headers.etag);
    assert.equal(head.body.length, 0);
  });

  test('every download of a period is the one body rendered for it', async () => {
    const [a, b] = await Promise.all([
      rawGet(`${svc.url}/api/dataset.jsonl`),
      rawGet(`${svc.url}/api/v1/dataset.jsonl`),
    ]);
    assert.ok(a.body.equals(b.body));
    assert.equal(Number(a.headers['content-length']), a.body.length);
  });
});

describe('the export budget', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp({ RATE_LIMIT: 'on', RATE_LIMIT_EXPORT: '2/2' }, { snapshot: storedDemoPeriod });
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
