import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateNames, loadNameCases, type ClassScore } from '../../evaluation/names.js';
import { EVALUATION_BASE, evaluationSnapshot } from '../../evaluation/universe.js';

const cases = loadNameCases();
const scores = new Map<string, ClassScore>(
  evaluateNames(evaluationSnapshot(1), EVALUATION_BASE, cases).map((s) => [s.class, s]),
);
const show = (s: ClassScore) => JSON.stringify(s.failures.slice(0, 5));

describe('labelled name-matching set (data/eval/names.yaml)', () => {
  test('holds at least 300 labelled queries covering every class', () => {
    assert.ok(cases.length >= 300, String(cases.length));
    for (const s of scores.values()) assert.ok(s.queries >= 10, `${s.class}: ${s.queries}`);
  });

  test('absent real companies are never substituted', () => {
    const s = scores.get('absent')!;
    assert.equal(s.substitutions, 0, show(s));
  });

  test('generic words are never substituted', () => {
    const s = scores.get('generic')!;
    assert.equal(s.substitutions, 0, show(s));
  });

  test('exact names, slugs and aliases resolve 100%', () => {
    for (const cls of ['exact', 'slug', 'alias']) {
      const s = scores.get(cls)!;
      assert.equal(s.recall, 1, `${cls}: ${show(s)}`);
      assert.equal(s.precision, 1, `${cls}: ${show(s)}`);
    }
  });

  test('single-edit typos of names of 8+ letters resolve at least 95%, with no substitution', () => {
    const s = scores.get('typo-1')!;
    assert.ok(s.recall >= 0.95, `${s.recall}: ${show(s)}`);
    assert.equal(s.substitutions, 0, show(s));
  });

  test('a name shared by two startups is ambiguous, never one of them', () => {
    const s = scores.get('shared')!;
    assert.equal(s.recall, 1, show(s));
  });
});
