import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { SECTOR_SLUGS, SIGNAL_TYPES, STAGES } from '../../../src/schemas/enums.js';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';

const STARTUP_KEYS = [
  'name',
  'description',
  'stage',
  'geography',
  'commitVelocity14d',
  'commitVelocityChange',
  'contributors',
  'contributorGrowth',
  'newRepos',
  'signalType',
  'githubUrl',
  'websiteUrl',
  'linkedinUrl',
];
const SIGNED_PERCENT = /^[+-]\d+%$/;

type Json = Record<string, any>;

function assertStartup(s: Json, where: string): void {
  assert.deepEqual(Object.keys(s), STARTUP_KEYS, where);
  for (const key of ['name', 'description', 'geography']) assert.equal(typeof s[key], 'string', `${where}.${key}`);
  for (const key of ['commitVelocity14d', 'contributors', 'newRepos']) {
    assert.ok(Number.isInteger(s[key]) && s[key] >= 0, `${where}.${key}`);
  }
  assert.match(s.commitVelocityChange, SIGNED_PERCENT, where);
  assert.match(s.contributorGrowth, SIGNED_PERCENT, where);
  assert.ok((STAGES as readonly string[]).includes(s.stage), `${where}.stage ${s.stage}`);
  assert.ok((SIGNAL_TYPES as readonly string[]).includes(s.signalType), `${where}.signalType ${s.signalType}`);
  for (const key of ['githubUrl', 'websiteUrl', 'linkedinUrl'])
    assert.doesNotThrow(() => new URL(s[key]), `${where}.${key}`);
}

describe('signals read API', () => {
  let svc: TestApp;
  let body: Json;
  let raw: string;
  let res: Response;

  before(async () => {
    svc = await startTestApp({}, { snapshot: storedDemoPeriod, listen: true });
    res = await svc.get('/api/signals.json');
    raw = await res.text();
    body = JSON.parse(raw);
  });
  after(() => svc.close());

  describe('GET /api/signals.json', () => {
    test('answers 200 application/json with meta, trending and sectors', () => {
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, /^application\/json/);
      assert.deepEqual(Object.keys(body), ['meta', 'trending', 'sectors']);
    });

    test('meta has exactly the specified fields and types', () => {
      const { meta } = body;
      assert.deepEqual(Object.keys(meta), [
        'name',
        'period',
        'totalSectors',
        'totalStartups',
        'lastUpdated',
        'citation',
      ]);
      assert.deepEqual(Object.keys(meta.period), ['slug', 'name']);
      assert.match(meta.period.slug, /^\d{4}-w\d{2}$/);
      assert.match(meta.period.name, /^Week \d{1,2}, \d{4}$/);
      assert.equal(meta.totalSectors, 15);
      assert.ok(Number.isInteger(meta.totalStartups));
      assert.equal(new Date(meta.lastUpdated).toISOString(), meta.lastUpdated);
    });

    test('the demo dataset says it is synthetic in meta.name and meta.citation', () => {
      assert.match(body.meta.name, /SYNTHETIC DEMO DATA/);
      assert.match(body.meta.citation, /SYNTHETIC DEMO DATA/);
    });

    test('meta.citation states the CC BY 4.0 licence with attribution', () => {
      assert.match(body.meta.citation, /CC BY 4\.0/);
      assert.match(body.meta.citation, /https:\/\/creativecommons\.org\/licenses\/by\/4\.0\//);
      assert.match(body.meta.citation, /attribution required/);
    });

    test('serves at least 300 demo startups, at least 20 per sector', () => {
      assert.ok(body.meta.totalStartups >= 300);
      for (const sector of body.sectors) assert.ok(sector.startupCount >= 20, sector.slug);
    });

    test('trending holds 20 startups in the Startup shape', () => {
      assert.equal(body.trending.length, 20);
      body.trending.forEach((s: Json, i: number) => assertStartup(s, `trending[${i}]`));
    });

    test('sectors are the 15 enumerated slugs with the Sector fields', () => {
      assert.deepEqual(
        body.sectors.map((s: Json) => s.slug),
        [...SECTOR_SLUGS],
      );
      for (const sector of body.sectors) {
        assert.deepEqual(Object.keys(sector), ['name', 'slug', 'description', 'url', 'startupCount', 'startups']);
        assert.equal(typeof sector.name, 'string');
        assert.equal(typeof sector.description, 'string');
        assert.equal(sector.url, `${svc.url}/sectors/${sector.slug}`);
        assert.equal(sector.startupCount, sector.startups.length);
        sector.startups.forEach((s: Json, i: number) => assertStartup(s, `${sector.slug}[${i}]`));
      }
    });

    test('every startup sits in exactly one sector and totalStartups counts them', () => {
      const names = body.sectors.flatMap((s: Json) => s.startups.map((x: Json) => x.name));
      assert.equal(names.length, body.meta.totalStartups);
      assert.equal(new Set(names).size, names.length);
    });

    test('every trending startup also appears in its sector ranking', () => {
      const all = new Set(body.sectors.flatMap((s: Json) => s.startups.map((x: Json) => JSON.stringify(x))));
      for (const s of body.trending) assert.ok(all.has(JSON.stringify(s)), s.name);
    });

    test('public caching: shared lifetime 3600 s and a strong ETag', () => {
      assert.match(res.headers.get('cache-control')!, /(^|, )public(,|$)/);
      assert.match(res.headers.get('cache-control')!, /s-maxage=3600/);
      assert.match(res.headers.get('etag')!, /^"[A-Za-z0-9_-]+"$/);
    });

    test('If-None-Match with the ETag answers 304 without a body', async () => {
      const again = await svc.get('/api/signals.json', { headers: { 'if-none-match': res.headers.get('etag')! } });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), '');
      assert.equal(again.headers.get('etag'), res.headers.get('etag'));
    });

    test('a different If-None-Match gets the full body', async () => {
      const again = await svc.get('/api/signals.json', { headers: { 'if-none-match': '"something-else"' } });
      assert.equal(again.status, 200);
      assert.equal(await again.text(), raw);
    });

    test('CORS is open and security headers are set', () => {
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.match(res.headers.get('content-security-policy')!, /default-src 'none'/);
    });

    test('the licence is linked from the response headers', () => {
      assert.match(res.headers.get('link')!, /<https:\/\/creativecommons\.org\/licenses\/by\/4\.0\/>; rel="license"/);
    });
  });

  describe('GET /api/v1/signals.json', () => {
    test('is byte-identical to /api/signals.json with the same ETag', async () => {
      // The same coding asked of both: the ETag names the coded representation.
      const identity = { headers: { 'accept-encoding': 'identity' } };
      const [v1, canonical] = await Promise.all([
        svc.get('/api/v1/signals.json', identity),
        svc.get('/api/signals.json', identity),
      ]);
      assert.equal(v1.status, 200);
      assert.equal(await v1.text(), raw);
      assert.equal(await canonical.text(), raw);
      assert.equal(v1.headers.get('etag'), canonical.headers.get('etag'));
    });

    test('names /api/signals.json as canonical in a Link header', async () => {
      const v1 = await svc.get('/api/v1/signals.json');
      assert.match(v1.headers.get('link')!, new RegExp(`<${svc.url}/api/signals\\.json>; rel="canonical"`));
    });
  });

  describe('CORS preflight', () => {
    test('OPTIONS answers 204 with allowed methods and headers', async () => {
      const pre = await svc.get('/api/signal', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://elsewhere.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), '*');
      assert.match(pre.headers.get('access-control-allow-methods')!, /GET/);
      assert.match(pre.headers.get('access-control-allow-methods')!, /POST/);
      assert.equal(pre.headers.get('access-control-allow-headers'), 'authorization');
      assert.ok(Number(pre.headers.get('access-control-max-age')) > 0);
    });
  });

  describe('GET /api/signals.csv', () => {
    let csv: string;
    let csvRes: Response;
    before(async () => {
      csvRes = await svc.get('/api/signals.csv');
      csv = await csvRes.text();
    });

    test('answers text/csv with the licence linked and a strong ETag', () => {
      assert.equal(csvRes.status, 200);
      assert.match(csvRes.headers.get('content-type')!, /^text\/csv/);
      assert.match(csvRes.headers.get('link')!, /rel="license"/);
      assert.match(csvRes.headers.get('etag')!, /^"[^"]+"$/);
    });

    test('has a header row and one CRLF-terminated row per startup', () => {
      const lines = csv.split('\r\n');
      assert.equal(lines.pop(), '');
      assert.equal(
        lines[0],
        'period,sector,sectorRank,trendingRank,name,description,stage,geography,commitVelocity14d,commitVelocityChange,contributors,contributorGrowth,newRepos,signalType,githubUrl,websiteUrl,linkedinUrl,synthetic,signalStrength,signalEvidence,collection,collectionNote,stageSource',
      );
      assert.equal(lines.length - 1, body.meta.totalStartups);
    });

    test('every row of the demo dataset says it is synthetic', () => {
      const rows = csv.split('\r\n').slice(1, -1);
      assert.ok(rows.length > 0);
      for (const row of rows) assert.match(row, /,true,(strong|weak|none),/);
    });

    test('every row of the demo dataset says its collection was complete, with no note', () => {
      const rows = csv.split('\r\n').slice(1, -1);
      for (const row of rows) assert.match(row, /,complete,,(estimated|watchlist)$/);
    });

    test('carries the same data as the JSON', () => {
      const top = body.trending[0];
      const row = csv.split('\r\n').find((l) => l.includes(`,1,${top.name},`))!;
      assert.ok(row, 'trending #1 has trendingRank 1');
      assert.ok(row.startsWith(`${body.meta.period.slug},`));
      assert.ok(
        row.includes(
          `,${top.commitVelocity14d},${top.commitVelocityChange},${top.contributors},${top.contributorGrowth},${top.newRepos},`,
        ),
      );
    });
  });

  describe('GET /api/dataset.jsonl', () => {
    let lines: Json[];
    let jsonlRes: Response;
    before(async () => {
      jsonlRes = await svc.get('/api/dataset.jsonl');
      const text = await jsonlRes.text();
      assert.ok(text.endsWith('\n'));
      lines = text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
    });

    test('answers application/x-ndjson with the licence linked', () => {
      assert.equal(jsonlRes.status, 200);
      assert.match(jsonlRes.headers.get('content-type')!, /^application\/x-ndjson/);
      assert.match(jsonlRes.headers.get('link')!, /rel="license"/);
    });

    test('has one record per startup and period, for every stored period', () => {
      const periods = new Set(lines.map((l) => l.period));
      assert.ok(periods.size >= 26);
      assert.equal(lines.length, periods.size * body.meta.totalStartups);
      assert.equal(new Set(lines.map((l) => `${l.period}/${l.org}`)).size, lines.length);
    });

    test('each record is the Startup plus its period, organisation, sector and ranks', () => {
      for (const l of lines.slice(0, 50)) {
        assert.deepEqual(Object.keys(l).slice(0, 8), [
          'period',
          'periodName',
          'org',
          'sector',
          'rank',
          'sectorRank',
          'compositeScore',
          'synthetic',
        ]);
        const { period, periodName, org, sector, rank, sectorRank, compositeScore, synthetic, ...rest } = l;
        const {
          signalStrength,
          signalEvidence,
          signalFinding,
          collection,
          collectionNote,
          stageSource,
          evidenceDetails,
          ...startup
        } = rest;
        assert.equal(synthetic, true, 'the demo dataset is labelled synthetic on every record');
        assert.ok(['estimated', 'watchlist'].includes(stageSource), 'the demo names no public source for a stage');
        assert.ok(['strong', 'weak', 'none'].includes(signalStrength) && typeof signalEvidence === 'string');
        assert.deepEqual([collection, collectionNote], ['complete', null], 'the demo is generated whole');
        assertStartup(startup, `${period}/${org}`);
        assert.ok((SECTOR_SLUGS as readonly string[]).includes(sector));
        assert.ok(rank === null || Number.isInteger(rank));
        assert.ok(Number.isInteger(sectorRank) && Number.isInteger(compositeScore));
        assert.match(periodName, /^Week \d+, \d{4}$/);
      }
    });

    test('the current period in the export equals the signals.json data', () => {
      const current = lines.filter((l) => l.period === body.meta.period.slug);
      const top = current.find((l) => l.rank === 1)!;
      const { period, periodName, org, sector, rank, sectorRank, compositeScore, synthetic, ...rest } = top;
      const {
        signalStrength,
        signalEvidence,
        signalFinding,
        collection,
        collectionNote,
        stageSource,
        evidenceDetails,
        ...startup
      } = rest;
      assert.deepEqual(startup, body.trending[0]);
    });

    test('/api/v1/dataset.jsonl is the same export, and If-None-Match answers 304', async () => {
      const v1 = await svc.get('/api/v1/dataset.jsonl');
      assert.match(v1.headers.get('link')!, new RegExp(`<${svc.url}/api/dataset\\.jsonl>; rel="canonical"`));
      assert.equal(v1.headers.get('etag'), jsonlRes.headers.get('etag'));
      assert.equal((await v1.text()).split('\n').length - 1, lines.length);
      const cached = await svc.get('/api/dataset.jsonl', {
        headers: { 'if-none-match': jsonlRes.headers.get('etag')! },
      });
      assert.equal(cached.status, 304);
    });
  });

  describe('GET /api/signal', () => {
    const lookup = (company: string) => svc.get(`/api/signal?company=${encodeURIComponent(company)}`);

    test('a missing company answers 400 problem+json', async () => {
      const r = await svc.get('/api/signal');
      assert.equal(r.status, 400);
      assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
      const p = (await r.json()) as Json;
      assert.equal(p.status, 400);
      assert.equal(p.title, 'Bad Request');
      assert.equal(p.errors[0].location, 'querystring.company');
    });

    test('an empty company answers 400', async () => {
      assert.equal((await svc.get('/api/signal?company=')).status, 400);
    });

    test('81 characters answer 400, 80 characters are accepted', async () => {
      assert.equal((await lookup('a'.repeat(81))).status, 400);
      assert.equal((await lookup('a'.repeat(80))).status, 200);
    });

    test('a repeated company parameter answers 400', async () => {
      assert.equal((await svc.get('/api/signal?company=a&company=b')).status, 400);
    });

    test('a bad query answers problem+json with the CORS and security headers', async () => {
      const r = await svc.get('/api/signal?company=');
      assert.equal(r.status, 400);
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(r.headers.get('cache-control'), 'no-store');
    });

    test('an unknown query parameter beside company is ignored', async () => {
      const target = body.sectors[2].startups[1];
      const r = await svc.get(`/api/signal?company=${encodeURIComponent(target.name)}&utm_source=x`);
      assert.equal(r.status, 200);
      assert.deepEqual(await r.json(), target);
    });

    test('If-None-Match with the ETag answers 304 with the ETag and the common headers', async () => {
      const target = body.sectors[4].startups[0];
      const first = await lookup(target.name);
      const etag = first.headers.get('etag')!;
      assert.match(etag, /^"[\w-]+"$/);
      assert.equal(first.headers.get('access-control-allow-origin'), '*');
      const again = await svc.get(`/api/signal?company=${encodeURIComponent(target.name)}`, {
        headers: { 'if-none-match': `W/${etag}` },
      });
      assert.equal(again.status, 304);
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(again.headers.get('access-control-allow-origin'), '*');
      assert.equal(again.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
      assert.equal(await again.text(), '');
    });

    test('the same query asked twice answers the same bytes', async () => {
      const target = body.sectors[5].startups[3];
      const a = await lookup(target.name.toLowerCase());
      const b = await lookup(target.name.toLowerCase());
      assert.equal(a.headers.get('etag'), b.headers.get('etag'));
      assert.deepEqual(await a.json(), target);
      assert.deepEqual(await b.json(), target);
    });

    test('a hit is exactly the Startup record from signals.json, with X-Name-Match: exact', async () => {
      const target = body.sectors[3].startups[5];
      const r = await lookup(target.name);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-name-match'), 'exact');
      assert.deepEqual(await r.json(), target);
    });

    test('matching ignores case, spacing and punctuation', async () => {
      const target = body.sectors[7].startups[2];
      const mangled = `  ${target.name.toUpperCase().replace(' ', ' -- ')}!! `;
      assert.deepEqual(await (await lookup(mangled)).json(), target);
    });

    test('a one-letter typo of a long name finds the startup, with X-Name-Match: typo', async () => {
      const target = body.sectors[9].startups.find((s: Json) => s.name.split(' ')[0].length >= 5);
      const typo = target.name.slice(0, 3) + target.name.slice(4); // drop one letter of the first word
      const r = await lookup(typo);
      assert.equal(r.headers.get('x-name-match'), 'typo');
      assert.equal(((await r.json()) as Json).name, target.name);
    });

    test('the GitHub organisation slug finds the startup, with X-Name-Match: slug or exact', async () => {
      const target = body.trending[4];
      const slug = new URL(target.githubUrl).pathname.slice(1);
      const r = await lookup(slug);
      assert.ok(['slug', 'exact'].includes(r.headers.get('x-name-match')!));
      assert.equal(((await r.json()) as Json).name, target.name);
    });

    test('a first word shared by two startups is ambiguous: found false and both as candidates', async () => {
      const all: Json[] = body.sectors.flatMap((s: Json) => s.startups);
      const byFirst = new Map<string, Json[]>();
      for (const s of all) byFirst.set(s.name.split(' ')[0], [...(byFirst.get(s.name.split(' ')[0]) ?? []), s]);
      const [first, pair] = [...byFirst].find(([, list]) => list.length === 2)!;
      const r = await lookup(first);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-name-match'), 'ambiguous');
      const miss = (await r.json()) as Json;
      assert.equal(miss.found, false);
      assert.deepEqual(miss.candidates.map((c: Json) => c.name).sort(), pair.map((s) => s.name).sort());
      for (const c of miss.candidates) {
        assert.deepEqual(Object.keys(c), ['name', 'org', 'why']);
        assert.ok(pair.some((s) => new URL(s.githubUrl).pathname.slice(1) === c.org));
      }
    });

    test('a real company absent from the data is a miss, never a similar demo startup', async () => {
      for (const q of ['Confluent', 'Cockroach Labs', 'Nvida', 'GitLab', 'Stripe']) {
        const r = await lookup(q);
        assert.equal(r.status, 200);
        assert.notEqual(r.headers.get('x-name-match'), 'typo', q);
        assert.equal(((await r.json()) as Json).found, false, q);
      }
    });

    test('a generic word is a miss without candidates', async () => {
      for (const q of ['health', 'labs', 'cloud', 'data']) {
        const r = await lookup(q);
        assert.equal(r.headers.get('x-name-match'), 'none');
        assert.deepEqual(await r.json(), { found: false }, q);
      }
    });

    test('a miss answers 200 {"found": false} with X-Name-Match: none', async () => {
      const r = await lookup('Nothing Like Any Company Here');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-name-match'), 'none');
      assert.deepEqual(await r.json(), { found: false });
    });

    test('a query with no letters or digits is a miss', async () => {
      for (const q of ['!!!', '   ', '---', '%%'])
        assert.deepEqual(await (await lookup(q)).json(), { found: false }, q);
    });

    test('hostile input is answered 200 with a miss, never a 5xx', async () => {
      for (const q of [
        '<script>alert(1)</script>',
        "'; DROP TABLE periods; --",
        '\u0000\u0001',
        '🙂🙃',
        '../../etc/passwd',
        '%00',
      ]) {
        const r = await lookup(q);
        assert.equal(r.status, 200, q);
        assert.equal(((await r.json()) as Json).found, false, q);
      }
      const badEncoding = await svc.get('/api/signal?company=%E0%A4%A');
      assert.equal(badEncoding.status, 200);
      assert.equal(((await badEncoding.json()) as Json).found, false);
    });
  });

  describe('errors', () => {
    test('an unknown path answers 404 problem+json', async () => {
      const r = await svc.get('/api/nope');
      assert.equal(r.status, 404);
      assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
      const p = (await r.json()) as Json;
      assert.deepEqual([p.type, p.title, p.status, p.instance], ['about:blank', 'Not Found', 404, '/api/nope']);
    });

    test('error bodies never echo markup unescaped', async () => {
      // fetch() would percent-encode the markup; node:http sends the path as written.
      const { status, contentType, text } = await new Promise<{ status: number; contentType: string; text: string }>(
        (resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port: new URL(svc.url).port, path: '/api/<script>alert(1)</script>' }, (res) => {
              let text = '';
              res.on('data', (c) => (text += c));
              res.on('end', () =>
                resolve({ status: res.statusCode!, contentType: res.headers['content-type']!, text }),
              );
            })
            .on('error', reject);
        },
      );
      assert.equal(status, 404);
      assert.doesNotMatch(contentType, /html/);
      assert.doesNotMatch(text, /<script>/);
      assert.match((JSON.parse(text) as Json).instance as string, /<script>/, 'the JSON value itself is intact');
    });

    test('an over-long path parameter answers 414 problem+json with the common headers', async () => {
      const r = await svc.get(`/api/markets/${'a'.repeat(300)}`);
      assert.equal(r.status, 414);
      assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.equal(((await r.json()) as Json).status, 414);
    });

    test('a malformed URL answers 400 problem+json', async () => {
      const r = await svc.get('/api/signals.json%');
      assert.equal(r.status, 400);
      assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
    });
  });
});
