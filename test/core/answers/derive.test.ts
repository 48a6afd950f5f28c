import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { derivePerBaseInSteps } from '../../../src/core/answers/derive.js';
import { buildSnapshot, type PeriodInfo, type Snapshot } from '../../../src/snapshot/snapshot.js';
import type { Steps } from '../../../src/snapshot/steps.js';

function snapshot(): Snapshot {
  const period: PeriodInfo = {
    slug: '2026-w10',
    name: '2026-w10',
    dataset: 'synthetic-demo',
    datasetName: 'test',
    publishedAt: new Date('2026-03-09T06:00:00Z'),
    contentHash: '2026-w10',
    startupsTracked: 0,
  };
  return buildSnapshot({ baseUrl: 'http://test.example', period, periods: [period], startups: [] });
}

/** A value built in three steps, counting how many builds started and how many steps ran. */
function counted() {
  const runs = { builds: 0, steps: 0 };
  const value = derivePerBaseInSteps(function* (s, base): Steps<string> {
    runs.builds++;
    for (let i = 0; i < 3; i++) {
      runs.steps++;
      yield;
    }
    return `${s.period.slug}@${base}`;
  });
  return { value, runs };
}

describe('derivePerBaseInSteps', () => {
  test('reading the value builds it at once, and once per snapshot and base URL', () => {
    const { value, runs } = counted();
    const s = snapshot();
    assert.equal(value(s, 'http://a'), '2026-w10@http://a');
    assert.equal(value(s, 'http://a'), '2026-w10@http://a');
    assert.deepEqual(runs, { builds: 1, steps: 3 });
    value(s, 'http://b');
    assert.deepEqual(runs, { builds: 2, steps: 6 });
  });

  test('a read during a warm-up finishes the same build instead of starting another', () => {
    const { value, runs } = counted();
    const s = snapshot();
    const warm = value.warm(s, 'http://a');
    warm.next();
    assert.equal(runs.steps, 1);
    assert.equal(value(s, 'http://a'), '2026-w10@http://a');
    assert.deepEqual(runs, { builds: 1, steps: 3 });
    const rest = warm.next();
    assert.equal(rest.done, true);
    assert.equal(rest.value, '2026-w10@http://a');
  });

  test('warming a value already built takes no step', () => {
    const { value, runs } = counted();
    const s = snapshot();
    value(s, 'http://a');
    const warm = value.warm(s, 'http://a').next();
    assert.deepEqual(warm, { done: true, value: '2026-w10@http://a' });
    assert.equal(runs.builds, 1);
  });

  test('a build that throws is not kept: the next read builds again', () => {
    let attempts = 0;
    const value = derivePerBaseInSteps(function* (): Steps<string> {
      attempts++;
      yield;
      if (attempts === 1) throw new Error('first build fails');
      return 'built';
    });
    const s = snapshot();
    const warm = value.warm(s, 'http://a');
    warm.next();
    assert.throws(() => warm.next(), /first build fails/);
    assert.equal(value(s, 'http://a'), 'built');
    assert.equal(attempts, 2);
  });
});
