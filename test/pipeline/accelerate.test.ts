import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accelerate, flooredPercentChange, signedPercent } from '../../src/pipeline/accelerate.js';
import { COMMIT_CHANGE_FLOOR, CONTRIBUTOR_CHANGE_FLOOR } from '../../src/domain/rules.js';
import type { OrgMetrics } from '../../src/domain/records.js';

const metrics = (over: Partial<OrgMetrics>): OrgMetrics => ({
  commitsCurrent: 0,
  commitsPrior: 0,
  contributorsCurrent: 0,
  contributorsPrior: 0,
  contributors28d: 0,
  newRepos30d: 0,
  newLanguages: [],
  geography: 'Unknown',
  ...over,
});

describe('accelerate stage', () => {
  test('signed percent text has a sign on every value, +0% for no change', () => {
    assert.equal(signedPercent(42), '+42%');
    assert.equal(signedPercent(-7), '-7%');
    assert.equal(signedPercent(0), '+0%');
  });

  test('commit change is relative to the prior window above the floor', () => {
    const a = accelerate(metrics({ commitsCurrent: 142, commitsPrior: 100 }));
    assert.equal(a.commitVelocityChange, '+42%');
    assert.equal(a.commitChangePct, 42);
  });

  test('a near-zero prior window is lifted to the floor, so growth from nothing stays bounded', () => {
    const a = accelerate(metrics({ commitsCurrent: 30, commitsPrior: 1 }));
    assert.equal(a.commitChangePct, Math.round(((30 - 1) / COMMIT_CHANGE_FLOOR) * 100));
    assert.equal(a.commitVelocityChange, '+145%');
  });

  test('declines are negative and rounded half away from zero', () => {
    assert.equal(flooredPercentChange(93, 100, 20), -7);
    assert.equal(flooredPercentChange(65, 200, 20), -68); // -67.5 → -68
    assert.equal(flooredPercentChange(135, 200, 20), -33); // -32.5 → -33
  });

  test('contributor growth measures people, not commits', () => {
    const a = accelerate(
      metrics({ commitsCurrent: 500, commitsPrior: 100, contributorsCurrent: 6, contributorsPrior: 4 }),
    );
    assert.equal(a.contributorGrowth, '+50%');
    assert.equal(a.contributorChangePct, 50);
  });

  test('contributor growth uses its own floor', () => {
    const a = accelerate(metrics({ contributorsCurrent: 3, contributorsPrior: 0 }));
    assert.equal(a.contributorChangePct, Math.round((3 / CONTRIBUTOR_CHANGE_FLOOR) * 100));
  });
});
