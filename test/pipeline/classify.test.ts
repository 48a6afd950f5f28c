import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accelerate } from '../../src/pipeline/accelerate.js';
import { classify, classifySignal, estimateStage } from '../../src/pipeline/classify.js';
import { SIGNAL_TYPES } from '../../src/schemas/enums.js';
import type { OrgMetrics } from '../../src/pipeline/types.js';

const metrics = (over: Partial<OrgMetrics>): OrgMetrics => ({
  commitsCurrent: 100,
  commitsPrior: 100,
  contributorsCurrent: 4,
  contributorsPrior: 4,
  contributors28d: 5,
  newRepos30d: 0,
  newLanguages: [],
  geography: 'Unknown',
  ...over,
});
const signal = (m: OrgMetrics) => classifySignal(m, accelerate(m));

describe('classify stage', () => {
  test('contributor growth of 25% or more by at least 2 people is an engineering hiring burst', () => {
    assert.equal(signal(metrics({ contributorsCurrent: 10, contributorsPrior: 8 })), 'Engineering hiring burst');
  });

  test('growth of one person is not a hiring burst even when the percentage is high', () => {
    assert.notEqual(signal(metrics({ contributorsCurrent: 4, contributorsPrior: 3 })), 'Engineering hiring burst');
  });

  test('three or more new repositories are an infrastructure buildout', () => {
    assert.equal(signal(metrics({ newRepos30d: 3 })), 'Infrastructure buildout');
  });

  test('a new repository in a language the org did not use is a framework migration', () => {
    assert.equal(signal(metrics({ newRepos30d: 1, newLanguages: ['Rust'] })), 'Framework migration');
  });

  test('otherwise the signal is a deploy frequency spike', () => {
    assert.equal(signal(metrics({ commitsCurrent: 300 })), 'Deploy frequency spike');
  });

  test('rules apply in order: a hiring burst wins over a buildout', () => {
    assert.equal(
      signal(metrics({ contributorsCurrent: 10, contributorsPrior: 5, newRepos30d: 5 })),
      'Engineering hiring burst',
    );
  });

  test('every outcome is one of the four enumerated signal types', () => {
    for (const cur of [0, 3, 50]) {
      for (const repos of [0, 1, 4]) {
        assert.ok(SIGNAL_TYPES.includes(signal(metrics({ contributorsCurrent: cur, newRepos30d: repos }))));
      }
    }
  });

  test('stage is estimated from unique authors over 28 days', () => {
    assert.equal(estimateStage(metrics({ contributors28d: 2 })), 'Pre-seed');
    assert.equal(estimateStage(metrics({ contributors28d: 3 })), 'Pre-seed');
    assert.equal(estimateStage(metrics({ contributors28d: 4 })), 'Seed');
    assert.equal(estimateStage(metrics({ contributors28d: 25 })), 'Series A/B');
    assert.equal(estimateStage(metrics({ contributors28d: 41 })), 'Growth');
  });

  test('a stage known from the watchlist wins over the estimate', () => {
    const m = metrics({ contributors28d: 100 });
    const c = classify({ login: 'a', displayName: 'A', sector: 'robotics', stage: 'Seed' }, m, accelerate(m));
    assert.deepEqual([c.stage, c.stageSource], ['Seed', 'watchlist']);
  });
});
