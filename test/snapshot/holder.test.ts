import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SnapshotHolder } from '../../src/snapshot/holder.js';
import { buildSnapshot, type PeriodInfo, type Snapshot } from '../../src/snapshot/snapshot.js';

function period(slug: string): PeriodInfo {
  return {
    slug,
    name: slug,
    dataset: 'synthetic-demo',
    datasetName: 'test',
    publishedAt: new Date('2026-03-09T06:00:00Z'),
    contentHash: slug,
    startupsTracked: 0,
  };
}

function snapshotOf(slug: string): Snapshot {
  return buildSnapshot({ baseUrl: 'http://test.example', period: period(slug), periods: [period(slug)], startups: [] });
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await nextTurn();
}

describe('SnapshotHolder', () => {
  test('a listener registered while a snapshot is served runs at once', () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    const seen: string[] = [];
    holder.onSwap((s) => {
      seen.push(s.period.slug);
    });
    assert.deepEqual(seen, ['2026-w10']);
  });

  test('after deferWarmUp, listeners run for the current snapshot only once warmUp is called', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    const seen: string[] = [];
    holder.onSwap((s) => {
      seen.push(`a:${s.period.slug}`);
    });
    holder.onSwap((s) => {
      seen.push(`b:${s.period.slug}`);
    });
    await turns(3);
    assert.deepEqual(seen, []);
    holder.warmUp(() => assert.fail('no error expected'));
    await turns(4);
    assert.deepEqual(seen, ['a:2026-w10', 'b:2026-w10']);
  });

  test('a failing deferred listener is reported and the next one still runs', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    const seen: string[] = [];
    const errors: unknown[] = [];
    holder.onSwap(() => {
      throw new Error('bad index');
    });
    holder.onSwap((s) => {
      seen.push(s.period.slug);
    });
    holder.warmUp((err) => errors.push(err));
    await turns(4);
    assert.equal((errors[0] as Error).message, 'bad index');
    assert.deepEqual(seen, ['2026-w10']);
  });

  test('a first snapshot provided after the listeners registered waits for warmUp while the warm-up is deferred', async () => {
    const holder = new SnapshotHolder();
    holder.deferWarmUp();
    const seen: string[] = [];
    holder.onSwap((s) => {
      seen.push(`a:${s.period.slug}`);
    });
    holder.onSwap((s) => {
      seen.push(`b:${s.period.slug}`);
    });
    holder.provide(snapshotOf('2026-w10'));
    assert.equal(holder.current?.period.slug, '2026-w10');
    await turns(3);
    assert.deepEqual(seen, []);
    holder.warmUp(() => assert.fail('no error expected'));
    await turns(4);
    assert.deepEqual(seen, ['a:2026-w10', 'b:2026-w10']);
  });

  test('a first snapshot provided without a deferred warm-up runs the listeners at once, as a swap', () => {
    const holder = new SnapshotHolder();
    const seen: string[] = [];
    holder.onSwap((s) => {
      seen.push(s.period.slug);
    });
    holder.provide(snapshotOf('2026-w10'));
    assert.deepEqual(seen, ['2026-w10']);
  });

  test('a swap runs every listener for the new snapshot, deferred or not', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    const seen: string[] = [];
    holder.onSwap((s) => {
      seen.push(s.period.slug);
    });
    holder.swap(snapshotOf('2026-w11'));
    holder.warmUp(() => {});
    await turns(3);
    assert.deepEqual(seen, ['2026-w11']);
  });

  test('a listener that returns steps gets one event-loop turn per step, after the listeners before it', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    const seen: string[] = [];
    holder.onSwap(function* (s) {
      seen.push(`index 1:${s.period.slug}`);
      yield;
      seen.push('index 2');
      yield;
      seen.push('index 3');
    });
    holder.onSwap(() => {
      seen.push('next listener');
    });
    const measured: [string, number][] = [];
    holder.warmUp(
      () => assert.fail('no error expected'),
      (name, ms, _cpu, longest) => measured.push([name, longest <= ms ? 1 : 0]),
    );
    await turns(2);
    assert.deepEqual(seen, ['index 1:2026-w10']);
    await turns(1);
    assert.deepEqual(seen, ['index 1:2026-w10', 'index 2']);
    await turns(4);
    assert.deepEqual(seen, ['index 1:2026-w10', 'index 2', 'index 3', 'next listener']);
    assert.equal(measured.length, 2);
    assert.ok(
      measured.every(([, ordered]) => ordered === 1),
      'the longest step is never longer than the whole',
    );
  });

  test('the steps of a swap run in the background and stop when a newer period is swapped in', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    const seen: string[] = [];
    holder.onSwap(function* (s) {
      seen.push(`start:${s.period.slug}`);
      yield;
      seen.push(`end:${s.period.slug}`);
    });
    await turns(3);
    seen.length = 0;
    holder.swap(snapshotOf('2026-w11'));
    assert.deepEqual(seen, [], 'no step runs within swap');
    await turns(2);
    assert.deepEqual(seen, ['start:2026-w11']);
    holder.swap(snapshotOf('2026-w12'));
    await turns(5);
    assert.deepEqual(seen, ['start:2026-w11', 'start:2026-w12', 'end:2026-w12']);
  });

  test('advance runs the ahead listeners for the next period while the current one is served, then swaps it in', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    const seen: string[] = [];
    holder.onSwap(
      function* (s) {
        seen.push(`index start:${s.period.slug}`);
        yield;
        seen.push(`index end:${s.period.slug}`);
      },
      'index',
      { ahead: true },
    );
    holder.onSwap((s) => {
      seen.push(`after swap:${s.period.slug}`);
    });
    await turns(3);
    seen.length = 0;
    const advanced = holder.advance(snapshotOf('2026-w11'));
    assert.deepEqual(seen, ['index start:2026-w11'], 'one step, then the event loop');
    assert.equal(holder.current?.period.slug, '2026-w10', 'the current period serves while the index is built');
    assert.equal(await advanced, true);
    assert.equal(holder.current?.period.slug, '2026-w11');
    assert.deepEqual(seen.slice(0, 3), ['index start:2026-w11', 'index end:2026-w11', 'after swap:2026-w11']);
  });

  test('a listener registered as first runs before those registered earlier, ahead of a swap and at it', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    const seen: string[] = [];
    holder.onSwap((s) => void seen.push(`index:${s.period.slug}`), 'index', { ahead: true });
    holder.onSwap((s) => void seen.push(`compress:${s.period.slug}`), 'compress', { ahead: true, first: true });
    await turns(3);
    seen.length = 0;
    assert.equal(await holder.advance(snapshotOf('2026-w11')), true);
    assert.deepEqual(seen, ['compress:2026-w11', 'index:2026-w11', 'compress:2026-w11', 'index:2026-w11']);
  });

  test('advance swaps a period in only once the promise an ahead listener returned for it has settled', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    let finish!: () => void;
    holder.onSwap(
      (s) => (s.period.slug === '2026-w11' ? new Promise<void>((r) => (finish = r)) : undefined),
      'compress',
      {
        ahead: true,
      },
    );
    const advanced = holder.advance(snapshotOf('2026-w11'));
    await turns(5);
    assert.equal(holder.current?.period.slug, '2026-w10', 'not swapped in while the promise is pending');
    finish();
    assert.equal(await advanced, true);
    assert.equal(holder.current?.period.slug, '2026-w11');
  });

  test('advance swaps a period in when the promise an ahead listener returned rejects, and reports it', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    const reported: unknown[] = [];
    holder.warmUp((err) => reported.push(err));
    holder.onSwap(
      (s) => (s.period.slug === '2026-w11' ? Promise.reject(new Error('no zlib')) : undefined),
      'compress',
      {
        ahead: true,
      },
    );
    assert.equal(await holder.advance(snapshotOf('2026-w11')), true);
    assert.equal(holder.current?.period.slug, '2026-w11');
    assert.equal((reported[0] as Error).message, 'no zlib');
  });

  test('an advance cancelled between steps swaps nothing in', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    let closing = false;
    holder.onSwap(
      function* () {
        yield;
        closing = true;
        yield;
        assert.fail('no step runs once cancelled');
      },
      'index',
      { ahead: true },
    );
    await turns(5);
    assert.equal(await holder.advance(snapshotOf('2026-w11'), () => closing), false);
    assert.equal(holder.current?.period.slug, '2026-w10');
  });

  test('an error thrown by a step is reported and the listeners after it still run', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    const seen: string[] = [];
    const errors: unknown[] = [];
    holder.onSwap(function* () {
      yield;
      throw new Error('bad step');
    });
    holder.onSwap((s) => {
      seen.push(s.period.slug);
    });
    holder.warmUp((err) => errors.push(err));
    await turns(6);
    assert.equal((errors[0] as Error).message, 'bad step');
    assert.deepEqual(seen, ['2026-w10']);
  });

  test('settled resolves once the background steps are done, at once when none run', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    await holder.settled();
    let finished = false;
    holder.onSwap(function* () {
      yield;
      yield;
      finished = true;
    });
    assert.equal(finished, false);
    await holder.settled();
    assert.equal(finished, true);
  });

  test('settled waits for a promise a listener returned, without holding the other listeners back', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    let release!: () => void;
    const seen: string[] = [];
    holder.onSwap(() => new Promise<void>((resolve) => (release = resolve)).then(() => void seen.push('export')));
    holder.onSwap((s) => {
      seen.push(`index:${s.period.slug}`);
    });
    holder.warmUp(() => assert.fail('no error expected'));
    let settled = false;
    void holder.settled().then(() => (settled = true));
    await turns(5);
    assert.deepEqual(seen, ['index:2026-w10']);
    assert.equal(settled, false);
    release();
    await turns(2);
    assert.deepEqual(seen, ['index:2026-w10', 'export']);
    assert.equal(settled, true);
  });

  test('a promise a listener returned that rejects is reported, and settled still resolves', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    const errors: unknown[] = [];
    holder.onSwap(() => Promise.reject(new Error('store unreachable')));
    holder.warmUp((err) => errors.push(err));
    await holder.settled();
    assert.equal((errors[0] as Error).message, 'store unreachable');
  });

  test('a listener that waits for settled at a swap waits for the steps the swap started', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    const order: string[] = [];
    holder.onSwap(function* (s) {
      yield;
      yield;
      order.push(`steps:${s.period.slug}`);
    });
    holder.onSwap((s) => {
      void holder.settled().then(() => order.push(`settled:${s.period.slug}`));
    });
    await holder.settled();
    order.length = 0;
    holder.swap(snapshotOf('2026-w11'));
    await turns(6);
    assert.deepEqual(order, ['steps:2026-w11', 'settled:2026-w11']);
  });
});
