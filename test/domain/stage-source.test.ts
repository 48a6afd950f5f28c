import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isStageEstimated, stageSourceOf } from '../../src/domain/stage-source.js';

describe('how a stage is known', () => {
  test('a record stores its stage source with its metrics: a public https page, the watchlist, or an estimate', () => {
    assert.equal(stageSourceOf({ stageSource: 'https://acme.example/seed' }), 'https://acme.example/seed');
    assert.equal(stageSourceOf({ stageSource: 'watchlist' }), 'watchlist');
    assert.equal(stageSourceOf({ stageSource: 'estimated' }), 'estimated');
  });

  test('a record stored without a stage source, or with one that is not an https page, counts as estimated', () => {
    assert.equal(stageSourceOf({}), 'estimated');
    assert.equal(stageSourceOf(undefined), 'estimated');
    assert.equal(stageSourceOf({ stageSource: 'http://acme.example/seed' }), 'estimated');
    assert.equal(stageSourceOf({ stageSource: 'javascript:alert(1)' }), 'estimated');
    assert.equal(stageSourceOf({ stageSource: 42 }), 'estimated');
  });

  test('only an estimate is called estimated', () => {
    assert.equal(isStageEstimated('estimated'), true);
    assert.equal(isStageEstimated('watchlist'), false);
    assert.equal(isStageEstimated('https://acme.example/seed'), false);
  });
});
