import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import { readMarkets } from '../../../src/core/markets/markets.js';
import { shiftPeriod, parsePeriodSlug } from '../../../src/domain/periods.js';
import { DEMO_DATASET_NAME } from '../../../src/pipeline/demo/generate.js';
import { publishPeriod } from '../../../src/store/periods.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { generatedDemo } from '../../helpers/demo.js';

type Json = Record<string, any>;
const definitions = readMarkets(PACKAGED_CONTENT_DIR).markets;
const sectorMarket = definitions.find((d) => d.rule.scope !== 'all')!;

describe('markets', () => {
  let svc: TestApp;
  before(async () => {
    // The last test publishes a period into the store: the app picks it up as a start's period watcher would.
    svc = await startTestApp({}, { watchPeriods: true });
  });
  after(() => svc.close());

  const market = async (slug: string) => {
    const res = await svc.get(`/api/markets/${slug}`);
    assert.equal(res.status, 200, slug);
    return (await res.json()) as Json;
  };

  test('at least 3 markets answer, each with question, resolver, source of truth and dates', async () => {
    assert.ok(definitions.length >= 3);
    for (const def of definitions) {
      const body = await market(def.slug);
      assert.ok(body.question.endsWith('?'));
      assert.equal(body.resolver, def.resolver);
      assert.equal(body.sourceOfTruth, `${svc.url}${def.source_of_truth_path}`);
      assert.deepEqual([body.opensOn, body.resolvesOn], [def.opens_on, def.resolves_on]);
      assert.ok(body.candidateRule.includes(`top ${def.rule.top}`));
    }
  });

  test('candidates are the sector’s current leaders with their signal data', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
    const sector = signals.sectors.find((s: Json) => s.slug === sectorMarket.rule.scope);
    const body = await market(sectorMarket.slug);
    assert.deepEqual(
      body.candidates.map((c: Json) => c.signal),
      sector.startups.slice(0, sectorMarket.rule.top),
    );
  });

  test('implied probabilities follow the documented softmax and sum to 1', async () => {
    const body = await market(sectorMarket.slug);
    const weights = body.candidates.map((c: Json) => Math.exp(c.compositeScore / 10));
    const total = weights.reduce((a: number, b: number) => a + b, 0);
    body.candidates.forEach((c: Json, i: number) =>
      assert.ok(Math.abs(c.impliedProbability - weights[i] / total) < 1e-4),
    );
    assert.ok(Math.abs(body.candidates.reduce((s: number, c: Json) => s + c.impliedProbability, 0) - 1) < 1e-3);
    assert.match(body.probabilityFormula, /exp\(c_i \/ 10\)/);
  });

  test('an unknown market is 404 and lists the available markets', async () => {
    const res = await svc.get('/api/markets/no-such-market');
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const body = (await res.json()) as Json;
    assert.deepEqual(
      body.markets.map((m: Json) => m.slug),
      definitions.map((d) => d.slug),
    );
  });

  test('a hostile slug is 404 and its markup is not echoed', async () => {
    const res = await svc.get(`/api/markets/${encodeURIComponent('<svg onload=alert(1)>')}`);
    assert.equal(res.status, 404);
    assert.ok(!(await res.text()).includes('<svg'));
  });

  test('markets are recomputed when a new period is published', async () => {
    const before = await market(sectorMarket.slug);
    const next = shiftPeriod(parsePeriodSlug(before.period.slug), 1);
    const dataset = generatedDemo({ seed: 'markets-next-week', startups: 60, periods: 1, endPeriod: next });
    await publishPeriod(svc.service.store.db, {
      ...dataset.periods[0]!,
      dataset: 'synthetic-demo',
      datasetName: DEMO_DATASET_NAME,
      publishedAt: new Date(),
    });
    while (svc.service.holder.current?.period.slug !== next.slug) await new Promise((r) => setTimeout(r, 50));
    const after = await market(sectorMarket.slug);
    assert.equal(after.period.slug, next.slug);
    const expected = dataset.periods[0]!.ranked.startups.filter((s) => s.sector === sectorMarket.rule.scope)
      .sort((a, b) => a.rankInSector - b.rankInSector)
      .slice(0, sectorMarket.rule.top)
      .map((s) => s.login);
    assert.deepEqual(
      after.candidates.map((c: Json) => c.login),
      expected,
    );
  });
});
