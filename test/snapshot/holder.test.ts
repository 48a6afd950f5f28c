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
    holder.onSwap((s) => seen.push(s.period.slug));
    assert.deepEqual(seen, ['2026-w10']);
  });

  test('after deferWarmUp, listeners run for the current snapshot only once warmUp is called', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    const seen: string[] = [];
    holder.onSwap((s) => seen.push(`a:${s.period.slug}`));
    holder.onSwap((s) => seen.push(`b:${s.period.slug}`));
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
    holder.onSwap((s) => seen.push(s.period.slug));
    holder.warmUp((err) => errors.push(err));
    await turns(4);
    assert.equal((errors[0] as Error).message, 'bad index');
    assert.deepEqual(seen, ['2026-w10']);
  });

  test('a swap runs every listener for the new snapshot, deferred or not', async () => {
    const holder = new SnapshotHolder(snapshotOf('2026-w10'));
    holder.deferWarmUp();
    const seen: string[] = [];
    holder.onSwap((s) => seen.push(s.period.slug));
    holder.swap(snapshotOf('2026-w11'));
    holder.warmUp(() => {});
    await turns(3);
    assert.deepEqual(seen, ['2026-w11']);
  });
});
