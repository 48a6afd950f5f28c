import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { evaluateOutsideNames, loadOutsideNames, type SurfaceOutcome } from '../../evaluation/outside.js';
import { EVALUATION_BASE, evaluationSnapshot } from '../../evaluation/universe.js';

describe('real company names from outside the code (data/eval/outside-names.yaml)', () => {
  const cases = loadOutsideNames();
  let outcomes: SurfaceOutcome[];
  before(async () => {
    outcomes = await evaluateOutsideNames(evaluationSnapshot(), EVALUATION_BASE, cases);
  });
  const of = (surface: SurfaceOutcome['surface']) => outcomes.find((o) => o.surface === surface)!;

  test('the set holds the public list and the audit’s names, labelled', () => {
    assert.ok(cases.length >= 500);
    assert.ok(cases.some((c) => c.q === 'Linde' && c.expect === 'none'));
  });

  for (const surface of ['diligence', 'answer', 'deep-signal'] as const) {
    test(`${surface}: no name is answered with another entity's facts`, () => {
      assert.deepEqual(of(surface).wrong, []);
    });
  }

  test('diligence: every listed name that equals a held entity resolves to it', () => {
    const held = cases.filter((c) => c.expect !== 'none');
    assert.ok(held.length > 0);
    assert.equal(of('diligence').right, cases.length, 'every held name found, every other name a miss');
  });
});
