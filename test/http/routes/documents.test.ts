import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEMO_PERIODS } from '../../../src/pipeline/demo/seed.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

describe('published documents', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp();
  });
  after(() => svc.close());

  const getJson = async (path: string) => {
    const res = await svc.get(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', path);
    return { res, body: (await res.json()) as Json };
  };

  test('/api/changelog.json and /api/v1/changelog.json serve the same bytes', async () => {
    const [a, b] = await Promise.all([svc.get('/api/changelog.json'), svc.get('/api/v1/changelog.json')]);
    assert.equal(await a.text(), await b.text());
  });

  test('/api/v1/changelog.json names /api/changelog.json as canonical', async () => {
    const res = await svc.get('/api/v1/changelog.json');
    assert.equal(res.headers.get('link'), `<${svc.url}/api/changelog.json>; rel="canonical"`);
  });

  test('the changelog lists every stored period with slug, startups tracked and publication time', async () => {
    const { body } = await getJson('/api/changelog.json');
    assert.equal(body.periods.length, DEMO_PERIODS);
    assert.deepEqual(Object.keys(body.periods[0]), [
      'slug',
      'name',
      'dataset',
      'datasetName',
      'startupsTracked',
      'publishedAt',
      'url',
    ]);
    assert.equal(body.periods[0].slug, svc.service.holder.current!.period.slug);
  });

  test('the changelog lists interface releases with version, date and changes', async () => {
    const { body } = await getJson('/api/changelog.json');
    assert.equal(body.releases[0].version, '1.4.0');
    assert.equal(body.releases[0].date, '2026-05-08');
    assert.ok(body.releases[0].changes.length > 0);
  });

  test('the methodology is a HowTo of exactly 6 named steps', async () => {
    const { body } = await getJson('/api/v1/methodology.json');
    assert.equal(body['@type'], 'HowTo');
    assert.deepEqual(
      body.step.map((s: Json) => s.name),
      ['collect', 'filter', 'normalise', 'accelerate', 'classify', 'rank'],
    );
  });

  test('the glossary is a DefinedTermSet of exactly 18 terms, each with name, description and a site URL', async () => {
    const { body } = await getJson('/api/v1/glossary.json');
    assert.equal(body['@type'], 'DefinedTermSet');
    assert.equal(body.hasDefinedTerm.length, 18);
    for (const term of body.hasDefinedTerm) {
      assert.ok(term.name && term.description, term.termCode);
      assert.ok(term.url.startsWith(`${svc.url}/glossary#`), term.url);
    }
  });

  test('pricing lists the stable tier slugs with prices, currency and an as-of timestamp', async () => {
    const { body } = await getJson('/api/v1/pricing.json');
    assert.equal(body.currency, 'EUR');
    assert.equal(body.asOf, '2026-05-08T00:00:00.000Z');
    assert.deepEqual(
      body.tiers.map((t: Json) => [t.slug, t.price.amount, t.price.currency]),
      [
        ['free', '0.00', 'EUR'],
        ['deep-signal-credit-pack', '19.00', 'EUR'],
        ['x402-pay-per-call', '0.19', 'USD'],
        ['solana-credit-pack', '19.00', 'USD'],
      ],
    );
  });

  test('the members ledger has exactly the spec fields', async () => {
    const { body } = await getJson('/api/v1/members.json');
    assert.deepEqual(Object.keys(body), [
      'schema',
      'version',
      'license',
      'cohort',
      'aggregate',
      'members',
      'leaderboard',
      'grading_rules',
      'last_modified',
    ]);
    assert.deepEqual(Object.keys(body.cohort), [
      'name',
      'total_seats',
      'seats_claimed',
      'seats_open',
      'hub_url',
      'leaderboard_url',
      'apply_url',
      'anonymity_rule',
    ]);
    assert.deepEqual(Object.keys(body.aggregate), [
      'total_picks',
      'total_hits',
      'total_closed_windows',
      'cohort_hit_rate_pct',
    ]);
  });

  test('the affiliate program has exactly the spec fields and at most 10 leaders', async () => {
    const { body } = await getJson('/api/v1/affiliates.json');
    assert.deepEqual(Object.keys(body), [
      'schema_version',
      'program_name',
      'last_updated',
      'landing_page',
      'leaderboard_page',
      'swipe_kit_page',
      'signup_url',
      'terms',
      'bait',
      'program_stats',
      'swipe_kit',
      'contact',
      'leaderboard',
      'prohibited_channels',
      'license',
    ]);
    assert.ok(body.leaderboard.length <= 10);
  });

  test('the brand guide has exactly the spec fields', async () => {
    const { body } = await getJson('/api/v1/social-mascot.json');
    assert.deepEqual(Object.keys(body), [
      'schema_version',
      'mascot_name',
      'bible_page',
      'handles',
      'handle_status',
      'voice',
      'tone',
      'cadence',
      'posting_hours_utc',
      'hashtag_bank',
      'sample_batch',
      'pillars',
    ]);
  });

  for (const path of ['/api/v1/members.json', '/api/v1/affiliates.json', '/api/v1/social-mascot.json']) {
    test(`${path} may be cached at the edge for 1 hour`, async () => {
      const res = await svc.get(path);
      assert.match(res.headers.get('cache-control') ?? '', /(^|, )public(,|$)/);
      assert.match(res.headers.get('cache-control') ?? '', /s-maxage=3600/);
    });
  }

  test('a document answers 304 to a request that names its ETag', async () => {
    const first = await svc.get('/api/v1/glossary.json');
    const etag = first.headers.get('etag')!;
    const second = await svc.get('/api/v1/glossary.json', { headers: { 'if-none-match': etag } });
    assert.equal(second.status, 304);
  });

  test('every document route is in the OpenAPI document', async () => {
    const { body } = await getJson('/api/openapi.json');
    for (const path of [
      '/api/changelog.json',
      '/api/v1/changelog.json',
      '/api/v1/methodology.json',
      '/api/v1/glossary.json',
      '/api/v1/pricing.json',
      '/api/v1/members.json',
      '/api/v1/affiliates.json',
      '/api/v1/social-mascot.json',
    ]) {
      assert.ok(body.paths[path]?.get?.operationId, path);
    }
  });
});
