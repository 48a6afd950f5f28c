import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DiligenceResponse, DiligenceUsage } from '../../../src/schemas/answers.js';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';

const DOSSIER_FIELDS = ['entity', 'found', 'acquiredBy', 'acquisitionsMade', 'backedBy', 'signal', 'notes'];

describe('diligence routes', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp({}, { snapshot: storedDemoPeriod });
  });
  after(() => svc.close());

  const post = (body: string, contentType = 'application/json') =>
    svc.fetch(`${svc.url}/api/diligence.json`, { method: 'POST', headers: { 'content-type': contentType }, body });

  test('GET with a documented company answers the dossier with @type, dossier and citation', async () => {
    const res = await svc.get('/api/diligence.json?company=GitHub');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = DiligenceResponse.parse(await res.json());
    assert.equal(body['@type'], 'Dataset');
    assert.deepEqual(Object.keys(body.dossier), DOSSIER_FIELDS);
    assert.equal(body.dossier.found, true);
    assert.equal(body.dossier.acquiredBy[0]!.acquirer, 'Microsoft');
    assert.match(body.dossier.acquiredBy[0]!.sources[0]!.url, /^https:\/\//);
    assert.ok(Array.isArray(body.citation) && body.citation.length > 1);
  });

  test('the aliases entity and q work like company', async () => {
    for (const param of ['entity', 'q']) {
      const body = DiligenceResponse.parse(await (await svc.get(`/api/diligence.json?${param}=hashicorp`)).json());
      assert.equal(body.dossier.entity, 'HashiCorp', param);
    }
  });

  test('matching is case-insensitive and says how in X-Name-Match', async () => {
    const res = await svc.get('/api/diligence.json?company=rEd%20HAT');
    assert.equal(res.headers.get('x-name-match'), 'exact');
    const body = DiligenceResponse.parse(await res.json());
    assert.equal(body.dossier.entity, 'Red Hat');
  });

  test('a typo of a held entity is 404 with X-Name-Match: none, offering the entity, never its dossier', async () => {
    const res = await svc.get('/api/diligence.json?company=Hashicrop');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('x-name-match'), 'none');
    const body = DiligenceResponse.parse(await res.json());
    assert.equal(body.dossier.found, false);
    assert.deepEqual(body.dossier.acquiredBy, []);
    assert.ok(body.candidates?.some((c) => c.name === 'HashiCorp'));
  });

  test('an absent real company is 404 found false with the close name as a candidate, never its dossier', async () => {
    const res = await svc.get('/api/diligence.json?company=GitLab');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('x-name-match'), 'none');
    const body = DiligenceResponse.parse(await res.json());
    assert.equal(body.dossier.found, false);
    assert.equal(body.dossier.entity, 'GitLab');
    assert.deepEqual(body.dossier.acquiredBy, []);
    assert.deepEqual(
      body.candidates?.map((c) => c.name),
      ['GitHub'],
    );
  });

  test('a first name shared by two startups is an ambiguous 404 offering both, never one of them', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as {
      sectors: { startups: { name: string }[] }[];
    };
    const byFirst = new Map<string, string[]>();
    for (const { name } of signals.sectors.flatMap((s) => s.startups)) {
      const first = name.split(' ')[0]!;
      byFirst.set(first, [...(byFirst.get(first) ?? []), name]);
    }
    const [first, names] = [...byFirst].find(([, list]) => list.length === 2)!;
    const res = await svc.get(`/api/diligence.json?company=${encodeURIComponent(first)}`);
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('x-name-match'), 'ambiguous');
    const body = DiligenceResponse.parse(await res.json());
    assert.deepEqual(body.candidates?.map((c) => c.name).sort(), names.sort());
    assert.ok(body.candidates?.every((c) => c.kind === 'demo-startup'));
  });

  test('a generic word is 404 found false', async () => {
    const res = await svc.get('/api/diligence.json?company=systems');
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { dossier: { found: boolean } }).dossier.found, false);
  });

  test('without a company the usage envelope lists coverage and the answerable entities', async () => {
    const res = await svc.get('/api/diligence.json');
    assert.equal(res.status, 200);
    const body = DiligenceUsage.parse(await res.json());
    assert.deepEqual(Object.keys(body.metadata.coverage).sort(), [
      'acquirers',
      'answerableEntities',
      'companiesAndFunds',
      'demoStartups',
      'documentedAcquisitions',
      'fundsWithPortfolios',
      'trackedCompanies',
    ]);
    assert.equal(body.metadata.coverage.trackedCompanies, 0);
    assert.ok(body.metadata.coverage.demoStartups > 0);
    assert.ok(body.metadata.coverage.documentedAcquisitions >= 40);
    assert.match(body.metadata.sourceThreshold, /press releases, regulatory filings/);
    assert.equal(body.answerableEntities.length, body.metadata.coverage.answerableEntities);
  });

  test('a blank company is the usage envelope too', async () => {
    const body = (await (await svc.get('/api/diligence.json?company=%20')).json()) as Record<string, unknown>;
    assert.ok('answerableEntities' in body);
  });

  test('a company outside the corpus is 404 with found false and notes', async () => {
    const res = await svc.get('/api/diligence.json?company=Qwertyuiop%20Holdings');
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = DiligenceResponse.parse(await res.json());
    assert.equal(body.dossier.found, false);
    assert.equal(body.dossier.entity, 'Qwertyuiop Holdings');
    assert.ok(body.dossier.notes.length >= 2);
  });

  test('a demo startup answers its published signal, identical to /api/signal, and no M&A facts', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as { trending: { name: string }[] };
    const name = signals.trending[0]!.name;
    const body = DiligenceResponse.parse(
      await (await svc.get(`/api/diligence.json?company=${encodeURIComponent(name)}`)).json(),
    );
    const signal = await (await svc.get(`/api/signal?company=${encodeURIComponent(name)}`)).json();
    assert.deepEqual(body.dossier.signal, signal);
    assert.deepEqual(body.dossier.acquiredBy, []);
    assert.match(body.dossier.notes.join(' '), /synthetic demo dataset/);
  });

  test('a company of 101 characters is 400; 100 is accepted', async () => {
    const res = await svc.get(`/api/diligence.json?company=${'x'.repeat(101)}`);
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const ok = await svc.get(`/api/diligence.json?company=${'x'.repeat(100)}`);
    assert.equal(ok.status, 404);
  });

  test('POST {company} answers the same dossier as GET', async () => {
    const viaPost = await post(JSON.stringify({ company: 'GitHub' }));
    assert.equal(viaPost.status, 200);
    const viaGet = await svc.get('/api/diligence.json?company=GitHub');
    assert.deepEqual(await viaPost.json(), await viaGet.json());
  });

  test('POST {} answers the usage envelope', async () => {
    const res = await post('{}');
    assert.equal(res.status, 200);
    assert.ok('answerableEntities' in ((await res.json()) as object));
  });

  test('POST with a null body, wrong JSON types, invalid JSON or an over-long company is 400', async () => {
    for (const body of [
      'null',
      '[]',
      '"GitHub"',
      '{"company": 5}',
      '{"company": null}',
      '{"company"',
      `{"company":"${'y'.repeat(10_000)}"}`,
    ]) {
      const res = await post(body);
      assert.equal(res.status, 400, body.slice(0, 30));
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    }
  });

  test('POST with a body over the size limit is 413 and without JSON content type is 415', async () => {
    assert.equal((await post(JSON.stringify({ company: 'z'.repeat(70_000) }))).status, 413);
    assert.equal((await post('company=GitHub', 'application/x-www-form-urlencoded')).status, 415);
  });

  test('HTML and SQL in the company are echoed only as JSON data', async () => {
    const hostile = '<script>alert(1)</script>';
    const res = await svc.get(`/api/diligence.json?company=${encodeURIComponent(hostile)}`);
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await res.json()) as { dossier: { entity: string } }).dossier.entity, hostile);
    const sql = await svc.get(`/api/diligence.json?company=${encodeURIComponent("x'; DROP TABLE periods; --")}`);
    assert.equal(sql.status, 404);
    assert.match(sql.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await sql.json()) as { dossier: { entity: string } }).dossier.entity, "x'; DROP TABLE periods; --");
  });
});
