import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Property-based fuzzing of every route in the OpenAPI document: thousands of generated hostile requests (oversize
 * and unicode strings, path traversal, prototype keys, SQL and markup fragments, wrong JSON types, null and invalid
 * JSON bodies, huge bodies, bad percent-encoding, repeated parameters, hostile headers). Properties: no 5xx (a 503
 * only where the operation documents it), markup sent in never comes back unescaped in a markup or problem body, JSON
 * answers parse, and the process stays up.
 */
const MARK = '<x-fz onload=alert(1)>';
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

interface Operation {
  method: string;
  path: string;
  query: string[];
  documents503: boolean;
}

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '../../../../etc/passwd',
    '..%2f..%2f..%2fetc%2fpasswd',
    '__proto__',
    'constructor',
    'prototype',
    "' OR '1'='1' --",
    '1; DROP TABLE periods; --',
    `${MARK}</script><script>alert(1)</script>`,
    `"><svg/onload=alert(1)>${MARK}`,
    '=cmd|/c calc!A1',
    '\u202e\u0000\uffff\ud83d\ude00',
    '',
    ' ',
    'null',
    '-1',
    '1e309',
    'a'.repeat(300),
    'é'.repeat(5000),
  ),
  fc.string({ minLength: 1, maxLength: 10 }).map((s) => `${s}${MARK}${s}`),
);

/** Percent-encodes for a URL, sometimes leaving a broken escape in. */
const urlPart = fc.tuple(hostile, fc.constantFrom('ok', 'ok', 'ok', 'broken', 'raw-percent')).map(([s, how]) => {
  const encoded = encodeURIComponent(s);
  if (how === 'broken') return `${encoded}%E0%A4%A`;
  if (how === 'raw-percent') return `${encoded}%zz%`;
  return encoded;
});

/** Header values must be latin-1 without CR/LF for Node to send them; keep what is sendable. */
const headerValue = hostile.map((s) => s.replace(/[^\x20-\x7e\x80-\xff]/g, '?').slice(0, 4000));

const body = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.record({ query: hostile, company: hostile, name: hostile }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  fc.record({ company: fc.jsonValue(), query: fc.jsonValue() }).map((v) => JSON.stringify(v)),
  fc.constantFrom('null', '{"a":', '[', '"', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{}}}', ''),
  fc.constant('{"q":"' + 'x'.repeat(100 * 1024) + '"}'),
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zz',
  'application/xml',
  '*/*',
  '',
);

function request(
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload: string | undefined,
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    let answered: { status: number; type: string; chunks: Buffer[] } | undefined;
    const done = () =>
      resolve({
        status: answered!.status,
        type: answered!.type,
        body: Buffer.concat(answered!.chunks).toString('utf8'),
      });
    const req = http.request({ host: base.hostname, port: base.port, method, path, headers, agent: false }, (res) => {
      answered = { status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), chunks: [] };
      res.on('data', (c: Buffer) => answered!.chunks.push(c));
      res.on('end', done);
      res.on('error', done);
    });
    // The server may answer (405, 413, 415) and close before it has read a large body: what counts is the answer.
    req.on('error', (err) => (answered ? done() : reject(err)));
    if (payload !== undefined) req.end(payload);
    else req.end();
  });
}

describe('fuzzing every route', () => {
  let svc: TestApp;
  let operations: Operation[];
  before(async () => {
    // Raw HTTP (malformed paths and headers as sent, no URL normalisation): a real socket, over an in-memory period.
    svc = await startTestApp(
      {
        RATE_LIMIT: 'on',
        RATE_LIMIT_FREE: '1000000/1000000',
        RATE_LIMIT_SIGNAL: '1000000/1000000',
        RATE_LIMIT_RECEIPTS: '1000000/1000000',
        RATE_LIMIT_PAID: '1000000/1000000',
      },
      { listen: true },
    );
    const doc = (await (await svc.get('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; responses?: object }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        documents503: Boolean(op.responses && '503' in op.responses),
      })),
    );
  });
  after(() => svc.close());

  test('hostile requests never get a 5xx or an unescaped reflection, and the process stays up', async () => {
    assert.ok(operations.length > 20, `${operations.length} operations`);
    const base = new URL(svc.url);
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.nat(operations.length - 1),
        fc.constantFrom('same', 'same', 'same', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
        fc.array(urlPart, { minLength: 3, maxLength: 3 }),
        fc.array(fc.tuple(fc.oneof(fc.constant(''), urlPart), urlPart), { maxLength: 4 }),
        fc.option(body, { nil: undefined }),
        contentType,
        fc.record(
          {
            authorization: headerValue.map((v) => `Bearer ${v}`),
            'x-forwarded-for': headerValue,
            'x-request-id': headerValue,
            'if-none-match': headerValue,
            accept: headerValue,
            'x-payment': headerValue,
          },
          { requiredKeys: [] },
        ),
        async (index, methodChoice, params, extraQuery, payload, type, headers) => {
          const op = operations[index]!;
          const method = methodChoice === 'same' ? op.method : methodChoice;
          let p = 0;
          const path = op.path.replace(/\{[^}]+\}/g, () => params[p++ % params.length]!);
          const query = [
            ...op.query.map((name, i) => `${name}=${params[i % params.length]}`),
            ...op.query.map((name) => `${name}=${params[2]}`), // repeated parameters
            ...extraQuery.map(([k, v]) => `${k}=${v}`),
          ];
          const url = query.length ? `${path}?${query.join('&')}` : path;
          const sendBody = payload !== undefined && method !== 'GET' && method !== 'HEAD';
          const h: Record<string, string> = { ...headers };
          if (sendBody && type) h['content-type'] = type;
          const res = await request(base, method, url, h, sendBody ? payload : undefined);
          seen.add(`${op.method} ${op.path}`);
          const where = `${method} ${url.slice(0, 200)} -> ${res.status} ${res.body.slice(0, 300)}`;
          // Another method on the same path is answered by that method's operation: its documented 503 counts.
          const answering = operations.find((o) => o.path === op.path && o.method === method) ?? op;
          assert.ok(res.status < 500 || (res.status === 503 && answering.documents503), where);
          if (/html|svg|xml|problem\+json/.test(res.type)) {
            assert.ok(!res.body.includes('<x-fz'), `unescaped reflection: ${where}`);
          }
          if (/^application\/(json|problem\+json|ld\+json)/.test(res.type) && method !== 'HEAD' && res.body) {
            assert.doesNotThrow(() => JSON.parse(res.body), where);
          }
        },
      ),
      { numRuns: RUNS },
    );
    assert.equal(seen.size, operations.length, 'every operation was tried');
    const health = await svc.get('/healthz');
    assert.equal(health.status, 200);
  });
});
