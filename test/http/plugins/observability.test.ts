import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { compileTrust } from '../../../src/http/client-address.js';
import { IDS_PER_PREFIX, registerObservability, requestIdGenerator } from '../../../src/http/plugins/observability.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const TOKEN = 'metrics-token-0123456789';

async function appWith(env: Record<string, string>, lines: string[] = []) {
  const config = loadConfig(env);
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const app: FastifyInstance = Fastify({
    trustProxy: compileTrust(config.server.trustProxy),
    genReqId: requestIdGenerator(config.server),
    requestIdHeader: false,
  }) as unknown as FastifyInstance;
  registerObservability(app, config, pino({ level: 'info' }, sink));
  app.get('/x', () => 'ok');
  await app.ready();
  return app;
}

describe('request ids', () => {
  test('every response carries a generated X-Request-Id, different each time', async () => {
    const app = await appWith({});
    const a = (await app.inject({ method: 'GET', url: '/x' })).headers['x-request-id'];
    const b = (await app.inject({ method: 'GET', url: '/nowhere' })).headers['x-request-id'];
    assert.match(String(a), /^[A-Za-z0-9_-]+-[0-9a-z]+$/);
    assert.match(String(b), /^[A-Za-z0-9_-]+-[0-9a-z]+$/);
    assert.notEqual(a, b);
  });

  test('an X-Request-Id from an untrusted peer is replaced', async () => {
    const app = await appWith({});
    const res = await app.inject({ method: 'GET', url: '/x', headers: { 'x-request-id': 'from-client-1' } });
    assert.notEqual(res.headers['x-request-id'], 'from-client-1');
  });

  test('an X-Request-Id from a trusted proxy is kept', async () => {
    const app = await appWith({ TRUST_PROXY: 'loopback' });
    const res = await app.inject({ method: 'GET', url: '/x', headers: { 'x-request-id': 'lb-7f3a:42' } });
    assert.equal(res.headers['x-request-id'], 'lb-7f3a:42');
  });

  test('a generated X-Request-Id is a flat string, which node:http checks without flattening it', () => {
    // V8 prints a rope (a ConsString, what a concatenation of 13 characters or more makes) as c"…". The ids printed
    // are the 50,000th and on.
    const module = fileURLToPath(new URL('../../../src/http/plugins/observability.ts', import.meta.url));
    const script = `
      const { requestIdGenerator } = await import(${JSON.stringify(module)});
      const next = requestIdGenerator({ trustProxy: false });
      const req = { headers: {}, socket: {} };
      for (let i = 1; i < 50_000; i++) next(req);
      for (let i = 0; i < 3; i++) %DebugPrint(next(req));`;
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '--eval', script],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    const printed = run.stdout.split('\n').filter((line) => line.startsWith('DebugPrint'));
    assert.equal(printed.length, 3, run.stdout);
    for (const line of printed) assert.match(line, /\[String\]: "[A-Za-z0-9_-]{6}-[0-9a-z]{5}"$/);
  });

  test('a generated X-Request-Id stays shorter than a rope: 12 characters, the last counter included', () => {
    assert.equal((IDS_PER_PREFIX - 1).toString(36), 'zzzzz');
  });

  test('generated X-Request-Ids count up in five base-36 digits after the prefix, across the table of last digits', () => {
    const next = requestIdGenerator({ trustProxy: false });
    const req = { headers: {}, socket: {} } as unknown as IncomingMessage;
    const ids = Array.from({ length: 3 * 1296 + 5 }, () => next(req));
    const prefix = ids[0]!.slice(0, 7);
    ids.forEach((id, i) => {
      assert.equal(id.slice(0, 7), prefix);
      assert.equal(id.slice(7), (i + 1).toString(36).padStart(5, '0'));
    });
  });

  test('past the last counter of a prefix a new prefix is drawn, and the ids stay unique', () => {
    const next = requestIdGenerator({ trustProxy: false }, 100);
    const req = { headers: {}, socket: {} } as unknown as IncomingMessage;
    const ids = Array.from({ length: 1_000 }, () => next(req));
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(new Set(ids.map((id) => id.slice(0, 7))).size, 11);
    for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{6}-000[0-9a-z]{2}$/);
  });

  test('a malformed X-Request-Id is replaced even from a trusted proxy', async () => {
    const app = await appWith({ TRUST_PROXY: 'on' });
    for (const bad of ['<script>', 'a b', 'x'.repeat(129)]) {
      const res = await app.inject({ method: 'GET', url: '/x', headers: { 'x-request-id': bad } });
      assert.notEqual(res.headers['x-request-id'], bad);
    }
  });
});

describe('access log', () => {
  test('ACCESS_LOG=on writes one line per response with method, url, status, time and request id', async () => {
    const lines: string[] = [];
    const app = await appWith({ ACCESS_LOG: 'on' }, lines);
    const res = await app.inject({ method: 'GET', url: '/x?q=1', headers: { authorization: 'Bearer secret-key-1' } });
    const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
    assert.equal(entries.length, 1);
    assert.equal(entries[0].method, 'GET');
    assert.equal(entries[0].url, '/x?q=-');
    assert.equal(entries[0].status, 200);
    assert.equal(typeof entries[0].ms, 'number');
    assert.equal(entries[0].reqId, res.headers['x-request-id']);
    assert.ok(!lines.join('').includes('secret-key-1'));
  });

  test('the access log writes no query value: a key sent as ?api_key= never reaches the log', async () => {
    const lines: string[] = [];
    const app = await appWith({ ACCESS_LOG: 'on' }, lines);
    const key = `sigsk_${'A'.repeat(43)}`;
    await app.inject({ method: 'GET', url: `/x?api_key=${key}&company=acme&flag` });
    await app.inject({ method: 'GET', url: `/x?${key}` });
    await app.inject({ method: 'GET', url: `/nowhere?token=${encodeURIComponent(key)}` });
    const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
    assert.deepEqual(
      entries.map((e) => e.url),
      ['/x?api_key=-&company=-&flag', '/x?-', '/nowhere?token=-'],
    );
    assert.ok(!lines.join('').includes(key.slice(6, 20)));
  });

  test('ACCESS_LOG off (the default) writes nothing per request', async () => {
    const lines: string[] = [];
    const app = await appWith({}, lines);
    await app.inject({ method: 'GET', url: '/x' });
    assert.equal(lines.length, 0);
  });
});

describe('metrics', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ METRICS_TOKEN: TOKEN, RATE_LIMIT: 'on', RATE_LIMIT_SIGNAL: '1/1' });
  });
  after(() => svc.close());

  const scrape = async () => {
    const res = await svc.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    return res.text();
  };
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(series));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  };

  test('GET /metrics without the bearer token is 401 problem+json', async () => {
    const res = await svc.get('/metrics');
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal((await svc.get('/metrics', { headers: { authorization: 'Bearer wrong-token-000000' } })).status, 401);
  });

  test('requests are counted per route template and status, with a latency histogram', async () => {
    const series = 'http_requests_total{method="GET",route="/api/signals.json",status="200"';
    const before = value(await scrape(), series);
    await (await svc.get('/api/signals.json')).arrayBuffer();
    await (await svc.get('/api/signals.json')).arrayBuffer();
    const text = await scrape();
    assert.equal(value(text, series), before + 2);
    assert.match(
      text,
      /http_request_duration_seconds_bucket\{le="[\d.]+",service="signal-service",method="GET",route="\/api\/signals.json",status="200"\}/,
    );
  });

  test('429s are counted per class', async () => {
    const series = 'http_rate_limited_total{class="signal"';
    const before = value(await scrape(), series);
    await svc.get('/api/signal?company=a');
    assert.equal((await svc.get('/api/signal?company=a')).status, 429);
    assert.equal(value(await scrape(), series), before + 1);
  });

  test('the period being served and its age are exported', async () => {
    const text = await scrape();
    const period = ((await (await svc.get('/api/signals.json')).json()) as { meta: { period: { slug: string } } }).meta
      .period.slug;
    assert.ok(text.includes(`snapshot_period_info{period="${period}"`), 'period gauge');
    assert.ok(value(text, 'snapshot_age_seconds') > 0);
  });

  test('the process metrics (CPU, memory, event-loop delay, GC) are exported', async () => {
    const text = await scrape();
    for (const series of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds',
    ]) {
      assert.ok(text.includes(`# TYPE ${series} `), series);
    }
  });

  test('the main port serves no /metrics without METRICS_TOKEN', async () => {
    const plain = await startTestService();
    try {
      assert.equal((await plain.get('/metrics')).status, 404);
    } finally {
      await plain.close();
    }
  });

  test('METRICS_PORT serves /metrics on a separate listener', async () => {
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const separate = await startTestService({ METRICS_PORT: String(port) });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      assert.match(await res.text(), /^# HELP /m);
      assert.equal((await fetch(`http://127.0.0.1:${port}/api/signals.json`)).status, 404);
      assert.equal((await separate.get('/metrics')).status, 404);
    } finally {
      await separate.close();
    }
  });
});
