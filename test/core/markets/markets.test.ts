import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import {
  buildMarket,
  impliedProbabilities,
  marketQuestion,
  readMarkets,
  winnerOf,
  type MarketDefinition,
} from '../../../src/core/markets/markets.js';
import { Market, MarketsContent } from '../../../src/schemas/documents.js';
import type { SectorSlug } from '../../../src/schemas/enums.js';
import { buildSnapshot, type PeriodInfo, type Snapshot } from '../../../src/snapshot/snapshot.js';
import { BASE } from '../fixtures.js';

/** A hand-made period: [login, sector, composite, eligible] in ranking order. */
function snapshotOf(slug: string, rows: [string, SectorSlug, number, boolean][]): Snapshot {
  const period: PeriodInfo = {
    slug,
    name: `Week ${Number(slug.slice(6))}, ${slug.slice(0, 4)}`,
    dataset: 'github',
    datasetName: 'GitHub activity',
    publishedAt: new Date('2026-11-16T06:00:00Z'),
    contentHash: slug,
    startupsTracked: rows.length,
  };
  let overall = 0;
  const inSector = new Map<string, number>();
  return buildSnapshot({
    baseUrl: BASE,
    period,
    periods: [period],
    startups: rows.map(([login, sector, composite, eligible]) => {
      inSector.set(sector, (inSector.get(sector) ?? 0) + 1);
      return {
        login,
        sector,
        eligible,
        rankOverall: eligible ? ++overall : null,
        rankInSector: inSector.get(sector)!,
        scores: { velocity: composite, growth: composite, novelty: composite, composite },
        metrics: {},
        startup: {
          name: login.toUpperCase(),
          description: 'Test startup.',
          stage: 'Seed',
          geography: 'Unknown',
          commitVelocity14d: composite,
          commitVelocityChange: '+10%',
          contributors: 3,
          contributorGrowth: '+0%',
          newRepos: 0,
          signalType: 'Deploy frequency spike',
          githubUrl: `https://github.com/${login}`,
          websiteUrl: `https://${login}.example`,
          linkedinUrl: `https://www.linkedin.com/company/${login}`,
        },
      };
    }),
  });
}

const robotics = (top: number, resolves_on = '2027-02-28'): MarketDefinition => ({
  slug: 'robotics-test',
  resolver: 'Test resolver',
  source_of_truth_path: '/api/v1/dataset.jsonl',
  opens_on: '2026-11-23',
  resolves_on,
  rule: { scope: 'robotics', top },
});

const week46 = snapshotOf('2026-w46', [
  ['alpha', 'robotics', 90, true],
  ['beta', 'gaming', 85, true],
  ['gamma', 'robotics', 80, true],
  ['delta', 'robotics', 60, true],
  ['epsilon', 'robotics', 95, false],
]);

describe('markets', () => {
  test('the shipped content has at least 3 markets with unique slugs', () => {
    const markets = readMarkets(PACKAGED_CONTENT_DIR).markets;
    assert.ok(markets.length >= 3);
    assert.equal(new Set(markets.map((m) => m.slug)).size, markets.length);
  });

  test('implied probabilities are a softmax of composite scores over temperature 10', () => {
    assert.deepEqual(impliedProbabilities([80, 70]), [0.7311, 0.2689]);
    assert.deepEqual(impliedProbabilities([50, 50, 50, 50]), [0.25, 0.25, 0.25, 0.25]);
  });

  test('candidates are the sector’s top N in its published ranking order', () => {
    const market = buildMarket(robotics(3), week46, BASE);
    assert.deepEqual(
      market.candidates.map((c) => [c.position, c.login, c.rankInSector]),
      [
        [1, 'alpha', 1],
        [2, 'gamma', 2],
        [3, 'delta', 3],
      ],
    );
  });

  test('each candidate carries its current signal data and probability', () => {
    const [first] = buildMarket(robotics(3), week46, BASE).candidates;
    assert.equal(first!.signal.name, 'ALPHA');
    assert.equal(first!.compositeScore, 90);
    assert.equal(first!.impliedProbability, impliedProbabilities([90, 80, 60])[0]);
    assert.equal(first!.url, `${BASE}/startups/alpha`);
  });

  test('a market across all sectors takes the trending order', () => {
    const market = buildMarket({ ...robotics(2), rule: { scope: 'all', top: 2 } }, week46, BASE);
    assert.deepEqual(
      market.candidates.map((c) => c.login),
      ['alpha', 'beta'],
    );
  });

  test('the question names the scope and the resolution week', () => {
    assert.equal(
      marketQuestion(robotics(5)),
      'Which Robotics startup will rank #1 in its sector in Week 8, 2027 (2027-w08)?',
    );
  });

  test('status follows the current period: upcoming, open, resolved', () => {
    assert.equal(buildMarket(robotics(2), week46, BASE).status, 'upcoming');
    assert.equal(buildMarket({ ...robotics(2), opens_on: '2026-11-01' }, week46, BASE).status, 'open');
    assert.equal(
      buildMarket({ ...robotics(2), opens_on: '2026-11-01', resolves_on: '2026-11-15' }, week46, BASE).status,
      'resolved',
    );
  });

  test('an unresolved market has no resolution block', () => {
    assert.equal(buildMarket(robotics(2), week46, BASE).resolution, null);
  });

  test('markets are recomputed from a new snapshot', () => {
    const week47 = snapshotOf('2026-w47', [
      ['delta', 'robotics', 99, true],
      ['alpha', 'robotics', 40, true],
    ]);
    const before = buildMarket(robotics(2), week46, BASE);
    const after = buildMarket(robotics(2), week47, BASE);
    assert.deepEqual(
      before.candidates.map((c) => c.login),
      ['alpha', 'gamma'],
    );
    assert.deepEqual(
      after.candidates.map((c) => c.login),
      ['delta', 'alpha'],
    );
    assert.equal(after.period.slug, '2026-w47');
    assert.notDeepEqual(
      before.candidates.map((c) => c.impliedProbability),
      after.candidates.map((c) => c.impliedProbability),
    );
  });

  test('the winner of a resolved period is its #1 in the scope', () => {
    const rows = [
      { login: 'x', sector: 'robotics', rankOverall: 2, rankInSector: 1, compositeScore: 70, startup: { name: 'X' } },
      { login: 'y', sector: 'gaming', rankOverall: 1, rankInSector: 1, compositeScore: 80, startup: { name: 'Y' } },
    ] as const;
    assert.deepEqual(winnerOf(robotics(2), rows), { login: 'x', name: 'X', compositeScore: 70 });
    assert.deepEqual(winnerOf({ ...robotics(2), rule: { scope: 'all', top: 2 } }, rows), {
      login: 'y',
      name: 'Y',
      compositeScore: 80,
    });
  });

  test('a market payload matches its schema', () => {
    const market = buildMarket(robotics(3), week46, BASE);
    assert.deepEqual(Market.parse(market), market);
  });

  test('content with a market that resolves before it opens is rejected', () => {
    const markets = readMarkets(PACKAGED_CONTENT_DIR).markets;
    const bad = { markets: [...markets.slice(1), { ...markets[0]!, opens_on: '2027-12-01' }] };
    assert.equal(MarketsContent.safeParse(bad).success, false);
  });
});
