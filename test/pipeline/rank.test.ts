import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accelerate } from '../../src/pipeline/accelerate.js';
import { classify } from '../../src/pipeline/classify.js';
import { percentileRanks, rank, websiteFromBlog } from '../../src/pipeline/rank.js';
import type { EvidenceMetrics, OrgMetrics, ScoredOrg } from '../../src/domain/records.js';
import type { SectorSlug } from '../../src/schemas/enums.js';

/** Evidence that supports a weak Deploy frequency spike: 3 deploy days against none (min(3/4, +150%/100%) = 0.75). */
function someEvidence(over: Partial<EvidenceMetrics> = {}): EvidenceMetrics {
  return {
    deployDaysCurrent: 3,
    deployDaysPrior: 0,
    releasesCurrent: 3,
    tagsCurrent: 0,
    deploymentsCurrent: 0,
    deployIncompleteRepos: [],
    newContributors: 0,
    departedContributors: 0,
    newInfraRepos: [],
    infraCommitsCurrent: 0,
    infraCommitsPrior: 0,
    languageShiftPct: 0,
    ecosystemShiftPct: 0,
    risingLanguage: null,
    risingEcosystem: null,
    ...over,
  };
}

/** Evidence for no type at all. */
const noEvidence = () => someEvidence({ deployDaysCurrent: 0, releasesCurrent: 0 });

function org(login: string, sector: SectorSlug, over: Partial<OrgMetrics>): ScoredOrg {
  const metrics: OrgMetrics = {
    commitsCurrent: 50,
    commitsPrior: 50,
    contributorsCurrent: 3,
    contributorsPrior: 3,
    contributors28d: 3,
    newRepos30d: 0,
    newLanguages: [],
    geography: 'Unknown',
    evidence: someEvidence(),
    ...over,
  };
  const entry = { login, displayName: login.toUpperCase(), sector };
  const acceleration = accelerate(metrics);
  return {
    entry,
    profile: { login, name: null, description: null, location: null, blog: null },
    metrics,
    acceleration,
    classification: classify(entry, metrics, acceleration),
  };
}

describe('rank stage', () => {
  test('percentile ranks share the mid-point on ties', () => {
    assert.deepEqual(percentileRanks([10, 20, 20, 40]), [13, 50, 50, 88]);
    assert.deepEqual(percentileRanks([7]), [50]);
  });

  test('startups below the activity floor are not ranked across sectors', () => {
    const ranked = rank([
      org('busy', 'robotics', { commitsCurrent: 200 }),
      org('quiet', 'robotics', { commitsCurrent: 5 }),
    ]);
    const quiet = ranked.startups.find((s) => s.login === 'quiet')!;
    assert.equal(quiet.eligible, false);
    assert.equal(quiet.rankOverall, null);
    assert.deepEqual(
      ranked.trending.map((s) => s.login),
      ['busy'],
    );
  });

  test('a startup without evidence for its type is not ranked across sectors', () => {
    const ranked = rank([
      org('busy', 'robotics', { commitsCurrent: 400, evidence: noEvidence() }),
      org('steady', 'robotics', { commitsCurrent: 100 }),
    ]);
    const busy = ranked.startups.find((s) => s.login === 'busy')!;
    assert.equal(busy.signalEvidence.strength, 'none');
    assert.equal(busy.eligible, false);
    assert.equal(busy.rankOverall, null);
    assert.deepEqual(
      ranked.trending.map((s) => [s.login, s.rankOverall]),
      [['steady', 1]],
    );
  });

  test('a startup without evidence keeps its place in its sector', () => {
    const ranked = rank([
      org('busy', 'robotics', { commitsCurrent: 400, evidence: noEvidence() }),
      org('steady', 'robotics', { commitsCurrent: 100 }),
      org('quiet', 'robotics', { commitsCurrent: 5 }),
    ]);
    assert.deepEqual(
      ranked.bySector.get('robotics')!.map((s) => [s.login, s.rankInSector]),
      [
        ['busy', 1],
        ['steady', 2],
        ['quiet', 3],
      ],
    );
    assert.deepEqual(
      ranked.startups.map((s) => s.login),
      ['steady', 'busy', 'quiet'],
      'overall order: the ranked startups first',
    );
  });

  test('the fallback type of the older rule is not ranked across sectors', () => {
    // No evidence collected (rule activity-v1): nothing held, so Deploy frequency spike, with nothing measured.
    const ranked = rank([org('old', 'gaming', { commitsCurrent: 300, evidence: undefined })]);
    assert.equal(ranked.startups[0]!.startup.signalType, 'Deploy frequency spike');
    assert.equal(ranked.startups[0]!.rankOverall, null);
    assert.deepEqual(ranked.trending, []);
  });

  test('trending holds at most 20 startups, ordered by composite score', () => {
    const orgs = Array.from({ length: 30 }, (_, i) =>
      org(`o${i}`, 'edtech', { commitsCurrent: 30 + i * 10, commitsPrior: 40 }),
    );
    const ranked = rank(orgs);
    assert.equal(ranked.trending.length, 20);
    const composites = ranked.trending.map((s) => s.scores.composite);
    assert.deepEqual(
      composites,
      [...composites].sort((a, b) => b - a),
    );
    assert.deepEqual(
      ranked.trending.map((s) => s.rankOverall),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  test('each sector ranks its own startups by the same order, eligible first', () => {
    const ranked = rank([
      org('a', 'gaming', { commitsCurrent: 10 }),
      org('b', 'gaming', { commitsCurrent: 300 }),
      org('c', 'web3', { commitsCurrent: 100 }),
    ]);
    assert.deepEqual(
      ranked.bySector.get('gaming')!.map((s) => [s.login, s.rankInSector]),
      [
        ['b', 1],
        ['a', 2],
      ],
    );
    assert.deepEqual(
      ranked.bySector.get('web3')!.map((s) => s.rankInSector),
      [1],
    );
  });

  test('composite is the weighted sum of growth, velocity and novelty percentiles', () => {
    const ranked = rank([
      org('x', 'agtech', { commitsCurrent: 100, newRepos30d: 2 }),
      org('y', 'agtech', { commitsCurrent: 20 }),
    ]);
    for (const s of ranked.startups) {
      const { growth, velocity, novelty, composite } = s.scores;
      assert.equal(composite, Math.round(0.5 * growth + 0.3 * velocity + 0.2 * novelty));
    }
  });

  test('the published record carries the computed metrics in the Startup shape', () => {
    const s = rank([org('acme', 'robotics', { commitsCurrent: 142, commitsPrior: 100, newRepos30d: 1 })]).startups[0]!;
    assert.deepEqual(Object.keys(s.startup), [
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
    ]);
    assert.equal(s.startup.commitVelocity14d, 142);
    assert.equal(s.startup.commitVelocityChange, '+42%');
    assert.equal(s.startup.githubUrl, 'https://github.com/acme');
  });

  test('a country stated in the watchlist is the published geography; without it the estimate from GitHub is', () => {
    const stated = org('stated', 'robotics', { geography: 'United States' });
    stated.entry.country = 'DE';
    const ranked = rank([stated, org('estimated', 'robotics', { geography: 'United States' })]);
    const geography = (login: string) => ranked.startups.find((s) => s.login === login)!.startup.geography;
    assert.equal(geography('stated'), 'Germany');
    assert.equal(geography('estimated'), 'United States');
  });

  test('a blog field becomes a website only when it is a usable address', () => {
    assert.equal(websiteFromBlog('acme.io'), 'https://acme.io/');
    assert.equal(websiteFromBlog('https://acme.io/about'), 'https://acme.io/about');
    assert.equal(websiteFromBlog('not a url'), undefined);
    assert.equal(websiteFromBlog(''), undefined);
  });
});
