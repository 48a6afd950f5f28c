import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Coalescer } from '../../src/store/coalesce.js';

/** A run function that records each batch and finishes only when told to. */
function gatedRun() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const run = (items: number[]) =>
    new Promise<number[]>((resolve) => {
      batches.push(items);
      gates.push(() => resolve(items.map((i) => i * 10)));
    });
  return { batches, gates, run };
}

/** Lets every pending promise callback run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('Coalescer', () => {
  test('a call at low load runs at once, alone', async () => {
    const { batches, gates, run } = gatedRun();
    const coalescer = new Coalescer(run, { maxInFlight: 1, maxBatch: 10 });
    const answer = coalescer.submit(1);
    assert.deepEqual(batches, [[1]]);
    gates[0]!();
    assert.equal(await answer, 10);
  });

  test('calls that arrive while a batch runs go together in the next one, in arrival order', async () => {
    const { batches, gates, run } = gatedRun();
    const coalescer = new Coalescer(run, { maxInFlight: 1, maxBatch: 10 });
    const answers = [1, 2, 3, 4].map((i) => coalescer.submit(i));
    assert.deepEqual(batches, [[1]]);
    gates[0]!();
    await settled();
    assert.deepEqual(batches, [[1], [2, 3, 4]]);
    gates[1]!();
    assert.deepEqual(await Promise.all(answers), [10, 20, 30, 40]);
  });

  test('batches never exceed maxBatch and at most maxInFlight run at once', async () => {
    const { batches, gates, run } = gatedRun();
    const coalescer = new Coalescer(run, { maxInFlight: 2, maxBatch: 2 });
    const answers = [1, 2, 3, 4, 5, 6, 7].map((i) => coalescer.submit(i));
    assert.deepEqual(batches, [[1], [2]]);
    gates[0]!();
    gates[1]!();
    await settled();
    assert.deepEqual(batches, [[1], [2], [3, 4], [5, 6]]);
    gates[2]!();
    gates[3]!();
    await settled();
    assert.deepEqual(batches.at(-1), [7]);
    gates[4]!();
    assert.deepEqual(await Promise.all(answers), [10, 20, 30, 40, 50, 60, 70]);
  });

  test('a failed batch fails every call in it and the next batch still runs', async () => {
    let calls = 0;
    const coalescer = new Coalescer(
      async (items: number[]) => {
        calls++;
        if (items.includes(2)) throw new Error('statement failed');
        return items;
      },
      { maxInFlight: 1, maxBatch: 10 },
    );
    const first = coalescer.submit(1);
    const second = coalescer.submit(2);
    const third = coalescer.submit(3);
    assert.equal(await first, 1);
    await assert.rejects(second, /statement failed/);
    await assert.rejects(third, /statement failed/);
    assert.equal(await coalescer.submit(4), 4);
    assert.equal(calls, 3);
  });

  test('a batch answering the wrong number of results fails its calls', async () => {
    const coalescer = new Coalescer(async () => [], { maxInFlight: 1, maxBatch: 10 });
    await assert.rejects(coalescer.submit(1), /batch of 1 answered 0 results/);
  });
});
