import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import http, { type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { representations } from '../../src/http/conditional.js';
import { installFastPath, REMEMBERED_BYTES } from '../../src/http/fast-path.js';
import { compressionIdle, variant } from '../../src/http/precompressed.js';
import { compactHeap } from '../../src/runtime/heap.js';
import { rendered, type Rendered } from '../../src/snapshot/snapshot.js';
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

/** Requests a route's handler ran for (Fastify's tracing channel): the fast path's answers run none. */
let handled = 0;
const countHandled = () => handled++;
const routed = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const before = handled;
  const result = await run();
  return [result, handled - before];
};

/** A client address of its own per call (X-Forwarded-For from a trusted proxy): a fresh rate-limit budget. */
let clients = 0;
const client = () => `10.0.${(++clients >> 8) & 255}.${clients & 255}`;

describe('fast path', () => {
  let app: TestApp;

  before(async () => {
    diagnostics.subscribe('tracing:fastify.request.handler:start', countHandled);
    // With the limiter on, as served (the snapshot JSON and the pages are unlimited; the lookup's budget is tiny, so
    // its exhaustion is quick to reach), behind a trusted proxy that names each client.
    app = await startTestApp({ RATE_LIMIT: 'on', RATE_LIMIT_SIGNAL: '2/3', TRUST_PROXY: 'loopback' }, { listen: true });
    const snapshot = app.service.holder.published();
    await Promise.all([variant(snapshot.signalsJson, 'br'), variant(snapshot.signalsJson, 'gzip')]);
    await compressionIdle();
  });
  after(async () => {
    diagnostics.unsubscribe('tracing:fastify.request.handler:start', countHandled);
    await app.close();
  });

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

  /** The same request by the fast path (`fastUrl`) and by the route (`normalUrl`), each from a fresh client. */
  async function parity(fastUrl: string, normalUrl: string, method: string, headers: Record<string, string>) {
    const [normal, normalRuns] = await routed(() =>
      request(`${app.url}${normalUrl}`, method, { ...headers, 'x-forwarded-for': client() }),
    );
    const [fast, fastRuns] = await routed(() =>
      request(`${app.url}${fastUrl}`, method, { ...headers, 'x-forwarded-for': client() }),
    );
    assert.equal(normalRuns, 1, 'the route answered the normal request');
    assert.equal(fastRuns, 0, 'the fast path answered');
    assert.equal(fast.status, normal.status);
    assert.deepEqual(comparable(fast.headers), comparable(normal.headers));
    assert.deepEqual(fast.body, normal.body);
    return fast;
  }

  /** Renders, caches and compresses what the route serves at `url` (the fast path answers only that). */
  async function warm(url: string): Promise<string> {
    let etag = '';
    for (const coding of ['identity', 'br', 'gzip']) {
      const res = await request(`${app.url}${url}`, 'GET', { 'accept-encoding': coding, 'x-forwarded-for': client() });
      assert.equal(res.status, 200, url);
      if (coding === 'identity') etag = String(res.headers.etag);
    }
    await compressionIdle();
    return etag;
  }

  const coded = (etag: string, coding: string) => `${etag.slice(0, -1)}-${coding}"`;
  const readCases: [string, string, (etag: string) => Record<string, string>][] = [
    ['GET, no Accept-Encoding', 'GET', () => ({})],
    ['GET, Brotli accepted', 'GET', () => ({ 'accept-encoding': 'gzip, deflate, br' })],
    ['GET, gzip accepted', 'GET', () => ({ 'accept-encoding': 'gzip' })],
    ['HEAD, no Accept-Encoding', 'HEAD', () => ({})],
    ['HEAD, Brotli accepted', 'HEAD', () => ({ 'accept-encoding': 'br' })],
    ['GET, If-None-Match the identity tag', 'GET', (etag) => ({ 'if-none-match': etag })],
    [
      'GET, If-None-Match the Brotli tag',
      'GET',
      (etag) => ({ 'accept-encoding': 'br', 'if-none-match': coded(etag, 'br') }),
    ],
    [
      'GET, If-None-Match the gzip tag',
      'GET',
      (etag) => ({ 'accept-encoding': 'gzip', 'if-none-match': coded(etag, 'gzip') }),
    ],
    [
      'GET, If-None-Match the identity tag, Brotli accepted',
      'GET',
      (etag) => ({ 'accept-encoding': 'br', 'if-none-match': etag }),
    ],
    [
      'GET, If-None-Match the Brotli tag, gzip accepted',
      'GET',
      (etag) => ({ 'accept-encoding': 'gzip', 'if-none-match': coded(etag, 'br') }),
    ],
    ['GET, CORS request', 'GET', () => ({ origin: 'https://example.org', 'accept-encoding': 'br' })],
  ];

  interface Target {
    /** The URL the fast path answers, and the same read with a parameter the route ignores (the normal path). */
    fast: string;
    normal: string;
    /** What the route sends, checked once so the parity is about the intended answer. */
    expect?: (res: Raw) => void;
  }
  type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const signals = (): Json => JSON.parse(app.service.holder.published().signalsJson.body.toString());
  const lookup = (company: string): Pick<Target, 'fast' | 'normal'> => ({
    fast: `/api/signal?company=${encodeURIComponent(company)}`,
    normal: `/api/signal?company=${encodeURIComponent(company)}&utm_source=parity`,
  });
  const nameMatch = (how: string) => (res: Raw) => assert.equal(res.headers['x-name-match'], how);
  const targets: [string, () => Target][] = [
    [
      'lookup hit',
      () => {
        const target = signals().sectors[3].startups[5];
        return { ...lookup(target.name), expect: nameMatch('exact') };
      },
    ],
    [
      'lookup hit, + for spaces',
      () => {
        const target = signals().sectors[2].startups[1];
        // Spaces, as browsers encode them in a query (+), and as encodeURIComponent does (%20).
        const plus = encodeURIComponent(target.name).replaceAll('%20', '+');
        return {
          fast: `/api/signal?company=${plus}`,
          normal: `/api/signal?company=${plus}&x=1`,
        };
      },
    ],
    [
      'lookup miss with candidates',
      () => {
        const all: Json[] = signals().sectors.flatMap((s: Json) => s.startups);
        const byFirst = new Map<string, number>();
        for (const s of all) byFirst.set(s.name.split(' ')[0], (byFirst.get(s.name.split(' ')[0]) ?? 0) + 1);
        const [first] = [...byFirst].find(([, n]) => n === 2)!;
        return {
          ...lookup(first),
          expect: (res) => {
            nameMatch('ambiguous')(res);
            if (res.body.length) assert.equal(JSON.parse(res.body.toString()).candidates.length, 2);
          },
        };
      },
    ],
    ['lookup miss', () => ({ ...lookup('Nothing Like Any Company Here'), expect: nameMatch('none') })],
    [
      'lookup typo',
      () => {
        const target = signals().sectors[9].startups.find((s: Json) => s.name.split(' ')[0].length >= 5);
        return {
          ...lookup(target.name.slice(0, 3) + target.name.slice(4)),
          expect: nameMatch('typo'),
        };
      },
    ],
    ['home page', () => ({ fast: '/', normal: '/?utm_source=parity' })],
    [
      'startup page',
      () => {
        const login = new URL(signals().trending[2].githubUrl).pathname.slice(1);
        return { fast: `/startups/${login}`, normal: `/startups/${login}?utm_source=parity` };
      },
    ],
    [
      'startup page, login in capitals',
      () => {
        const login = new URL(signals().trending[2].githubUrl).pathname.slice(1).toUpperCase();
        return { fast: `/startups/${login}`, normal: `/startups/${login}?x=1` };
      },
    ],
  ];
  for (const [name, make] of targets) {
    describe(name, () => {
      let target: Target;
      let etag: string;
      before(async () => {
        target = make();
        etag = await warm(target.normal);
      });
      for (const [name, method, headers] of readCases) {
        test(`${name}: the same status, headers and bytes as the route`, async () => {
          const res = await parity(target.fast, target.normal, method, headers(etag));
          if (res.status === 200) target.expect?.(res);
        });
      }
    });
  }

  test("the lookup spends the route's budget and is refused with the same 429", async () => {
    const company = signals().sectors[4].startups[0].name;
    const { fast, normal } = lookup(company);
    await warm(normal);
    // Budget 2 a minute plus 1 in reserve: a client mixing both paths and one using the route only, request by request.
    const mixed = client();
    const routeOnly = client();
    for (const [step, url] of [fast, normal, fast, fast, normal].entries()) {
      const [a, runs] = await routed(() => request(`${app.url}${url}`, 'GET', { 'x-forwarded-for': mixed }));
      const b = await request(`${app.url}${normal}`, 'GET', { 'x-forwarded-for': routeOnly });
      assert.equal(a.status, step < 3 ? 200 : 429, `request ${step + 1}`);
      if (url === fast && step < 3) assert.equal(runs, 0, `request ${step + 1} answered by the fast path`);
      assert.equal(a.status, b.status, `request ${step + 1}`);
      assert.deepEqual(comparable(a.headers), comparable(b.headers), `request ${step + 1}`);
      assert.deepEqual(a.body, b.body, `request ${step + 1}`);
    }
  });

  test('a query it does not take, malformed encoding or a page not rendered goes to the route', async () => {
    const company = signals().sectors[5].startups[1].name;
    await warm(lookup(company).normal);
    for (const url of [
      lookup(company).normal,
      `/api/signal?company=%E0%A4%A`,
      '/?page=1',
      '/startups/no-such-startup-anywhere',
      '/startups/a%62c',
    ]) {
      const [res, runs] = await routed(() => request(`${app.url}${url}`, 'GET', { 'x-forwarded-for': client() }));
      assert.ok(res.status < 500, url);
      assert.equal(runs, 1, `${url}: the route answered`);
    }
    // Refused by the route's validation, before its handler.
    const repeated = `/api/signal?company=${encodeURIComponent(company)}&company=x`;
    assert.equal((await request(`${app.url}${repeated}`, 'GET', { 'x-forwarded-for': client() })).status, 400);
  });
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
    const prepared = representations({ 'x-frame-options': 'DENY' });
    installFastPath(
      server,
      [
        {
          path: '/fast',
          answer: (_rest, query) => (query === '' ? { entity, representations: prepared(entity) } : undefined),
        },
      ],
      { requestId: () => 'id-1', clientAddress: () => '127.0.0.1' },
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
    const prepared = representations();
    installFastPath(local, [{ path: '/fast', answer: () => ({ entity: fresh, representations: prepared(fresh) }) }], {
      requestId: () => 'id',
      clientAddress: () => '127.0.0.1',
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const port = (local.address() as { port: number }).port;
      const res = await request(`http://127.0.0.1:${port}/fast`, 'GET', { 'accept-encoding': 'br' });
      assert.equal(res.status, 299);
    } finally {
      await new Promise<void>((resolve) => local.close(() => resolve()));
    }
  });

  test('a read the same for the whole period is asked once per target, and again once the period changes', async () => {
    const period = new Periods();
    const { base, asked, close } = await rememberingServer(entity, period);
    try {
      const first = await request(`${base}/same?q=a`, 'GET', {});
      const again = await request(`${base}/same?q=a`, 'GET', {});
      await request(`${base}/same?q=b`, 'GET', {});
      assert.deepEqual(asked, ['q=a', 'q=b']);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      assert.deepEqual(again.headers, { ...first.headers, date: again.headers.date });
      const held = await request(`${base}/same?q=a`, 'GET', { 'if-none-match': entity.etag });
      assert.equal(held.status, 304);
      period.current = {};
      await request(`${base}/same?q=a`, 'GET', {});
      assert.deepEqual(asked, ['q=a', 'q=b', 'q=a']);
    } finally {
      await close();
    }
  });

  test("what a period's reads remembered starts again once their bodies would pass REMEMBERED_BYTES", async () => {
    // Three targets answered with one body of 12 MB: two fit in the 32 MB, the third does not.
    const large = rendered('x'.repeat(12 * 1024 * 1024), 'text/plain');
    assert.ok(2 * large.body.length <= REMEMBERED_BYTES && 3 * large.body.length > REMEMBERED_BYTES);
    const { base, asked, close } = await rememberingServer(large, new Periods());
    try {
      for (const query of ['a', 'b', 'a', 'b', 'c', 'a']) {
        const res = await request(`${base}/same?${query}`, 'HEAD', {});
        assert.equal(res.status, 200);
      }
      assert.deepEqual(asked, ['a', 'b', 'c', 'a']);
    } finally {
      await close();
    }
  });

  test("what a period's reads remembered is let go when the period is swapped, before any further request", async () => {
    const local = http.createServer((_req, res) => res.writeHead(299).end());
    const period = new Periods();
    let answered: WeakRef<object> | undefined;
    installFastPath(
      local,
      [
        {
          path: '/same',
          samePerPeriod: true,
          answer: () => {
            // A body of this period alone, held by nothing but what the fast path remembers.
            const own = rendered(JSON.stringify({ period: 1, padding: 'x'.repeat(2000) }), 'application/json');
            answered = new WeakRef(own);
            return { entity: own, representations: representations()(own) };
          },
        },
      ],
      { requestId: () => 'id', clientAddress: () => '127.0.0.1', period },
    );
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const res = await request(`http://127.0.0.1:${(local.address() as { port: number }).port}/same`, 'GET', {});
      assert.equal(res.status, 200);
      // A full collection with no heap limit (runtime/heap.ts), after a turn: a WeakRef's target outlives its job.
      await new Promise((resolve) => setImmediate(resolve));
      compactHeap(Number.POSITIVE_INFINITY);
      assert.notEqual(answered?.deref(), undefined, 'remembered while its period is served');
      period.swap();
      await new Promise((resolve) => setImmediate(resolve));
      compactHeap(Number.POSITIVE_INFINITY);
      assert.equal(answered?.deref(), undefined, 'let go once the period is swapped');
    } finally {
      await new Promise<void>((resolve) => local.close(() => resolve()));
    }
  });
});

/**
 * A server whose one fast read, `/same`, is the same for the whole period (answered with `entity`) and records each
 * query it is asked, that is each answer the fast path did not remember.
 */
async function rememberingServer(entity: Rendered, period: Periods) {
  const local = http.createServer((_req, res) => res.writeHead(299).end());
  const prepared = representations();
  const asked: string[] = [];
  installFastPath(
    local,
    [
      {
        path: '/same',
        samePerPeriod: true,
        answer: (_rest, query) => {
          asked.push(query);
          return { entity, representations: prepared(entity) };
        },
      },
    ],
    { requestId: () => 'id', clientAddress: () => '127.0.0.1', period },
  );
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(local.address() as { port: number }).port}`,
    asked,
    close: () => new Promise<void>((resolve) => local.close(() => resolve())),
  };
}

/** A period source as the snapshot holder is one: the current period, and listeners told after each swap. */
class Periods {
  current: object = {};
  private readonly listeners: (() => void)[] = [];
  onSwap(listener: () => void): void {
    this.listeners.push(listener);
  }
  swap(): void {
    this.current = {};
    for (const listener of this.listeners) listener();
  }
}
