import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SteppedBuild, drain, inChunks, inTurns, sortInSteps, type Steps } from '../../src/snapshot/steps.js';

/** A build of three steps, counting how many times it started and how many steps ran. */
function counted() {
  const runs = { builds: 0, steps: 0 };
  const build = new SteppedBuild(function* (): Steps<string> {
    runs.builds++;
    for (let i = 0; i < 3; i++) {
      runs.steps++;
      yield;
    }
    return 'built';
  });
  return { build, runs };
}

describe('steps', () => {
  test('inTurns runs one step per turn of the event loop, letting other callbacks run between steps', async () => {
    const order: string[] = [];
    const steps = (function* (): Steps<string> {
      for (let i = 0; i < 3; i++) {
        order.push(`step ${i}`);
        setImmediate(() => order.push(`between ${i}`));
        yield;
      }
      return 'done';
    })();
    assert.equal(await inTurns(steps), 'done');
    assert.deepEqual(order, ['step 0', 'between 0', 'step 1', 'between 1', 'step 2', 'between 2']);
  });

  test('drain runs every step and returns the result', () => {
    const seen: number[] = [];
    drain(inChunks([1, 2, 3, 4, 5], 2, (n) => seen.push(n)));
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
  });

  test('inChunks yields after every chunk of items', () => {
    const steps = inChunks([1, 2, 3, 4, 5], 2, () => {});
    let yields = 0;
    while (!steps.next().done) yields++;
    assert.equal(yields, 2);
  });
});

describe('SteppedBuild', () => {
  test('get runs the whole build at once, and only once', () => {
    const { build, runs } = counted();
    assert.equal(build.get(), 'built');
    assert.equal(build.get(), 'built');
    assert.deepEqual(runs, { builds: 1, steps: 3 });
  });

  test('warm hands out one step per next()', () => {
    const { build, runs } = counted();
    const warm = build.warm();
    warm.next();
    assert.equal(runs.steps, 1);
    warm.next();
    assert.equal(runs.steps, 2);
  });

  test('get during a warm-up finishes the same build, and the warm-up then ends with its value', () => {
    const { build, runs } = counted();
    const warm = build.warm();
    warm.next();
    assert.equal(build.get(), 'built');
    assert.deepEqual(runs, { builds: 1, steps: 3 });
    assert.deepEqual(warm.next(), { done: true, value: 'built' });
  });

  test('two warm-ups share the steps', () => {
    const { build, runs } = counted();
    const a = build.warm();
    const b = build.warm();
    a.next();
    b.next();
    a.next();
    assert.equal(runs.steps, 3);
    assert.equal(b.next().done, true);
    assert.equal(runs.builds, 1);
  });

  test('a build that throws is dropped: the next read starts it again', () => {
    let attempts = 0;
    const build = new SteppedBuild(function* (): Steps<string> {
      attempts++;
      yield;
      if (attempts === 1) throw new Error('first build fails');
      return 'built';
    });
    assert.throws(() => build.get(), /first build fails/);
    assert.equal(build.get(), 'built');
    assert.equal(attempts, 2);
  });
});

describe('sortInSteps', () => {
  /** Items with many equal keys, tagged with their position, in a fixed pseudo-random order. */
  const items = Array.from({ length: 1000 }, (_, i) => ({ key: (i * 7919) % 37, at: i }));
  const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;

  test('gives what a stable Array.prototype.sort gives, equal items in their original order', () => {
    for (const chunk of [1, 3, 64, 999, 1000, 4096]) {
      assert.deepEqual(drain(sortInSteps(items, byKey, chunk)), [...items].sort(byKey), `chunk ${chunk}`);
    }
  });

  test('leaves its input as it was', () => {
    const copy = [...items];
    drain(sortInSteps(items, byKey, 10));
    assert.deepEqual(items, copy);
  });

  test('yields between chunks of work, and not at all for a list that fits one chunk', () => {
    const count = (steps: Steps<unknown>) => {
      let yields = 0;
      while (!steps.next().done) yields++;
      return yields;
    };
    assert.equal(count(sortInSteps(items, byKey, 2000)), 0);
    assert.ok(count(sortInSteps(items, byKey, 100)) >= 10);
  });

  test('an empty list sorts to an empty list', () => {
    assert.deepEqual(drain(sortInSteps([], byKey)), []);
  });
});
