import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SeriesTable } from '../../src/domain/series.js';

/** Rows as the store reads them: every startup of a period, period after period. */
function table(rows: [login: string, period: string, commits: number, contributors: number, rank: number | null][]) {
  const builder = SeriesTable.builder();
  for (const row of rows) builder.add(...row);
  return builder.finish();
}

describe('the series table', () => {
  const series = table([
    ['Acme', '2026-w01', 10, 2, 3],
    ['bolt', '2026-w01', 5, 1, null],
    ['Acme', '2026-w02', 12, 3, 1],
    ['bolt', '2026-w02', 7, 2, 2],
    ['Acme', '2026-w03', 15, 3, null],
  ]);

  test("a startup's series lists its periods oldest first with their figures", () => {
    assert.deepEqual(series.get('acme'), {
      periods: ['2026-w01', '2026-w02', '2026-w03'],
      commits: [10, 12, 15],
      contributors: [2, 3, 3],
      ranks: [3, 1, null],
    });
  });

  test('a startup below the ranking floor has a null rank that week', () => {
    assert.deepEqual(series.get('bolt')?.ranks, [null, 2]);
  });

  test('logins are read in lower case and counted once each', () => {
    assert.equal(series.size, 2);
    assert.equal(series.get('Acme'), undefined);
    assert.equal(series.get('nobody'), undefined);
  });

  test('keep limits every series to the periods named', () => {
    const kept = series.keep(new Set(['2026-w01', '2026-w02']));
    assert.deepEqual(kept.get('acme')?.periods, ['2026-w01', '2026-w02']);
    assert.deepEqual(kept.get('acme')?.commits, [10, 12]);
    assert.deepEqual(kept.get('bolt')?.ranks, [null, 2]);
  });

  test('keep returns the same table when every period is named', () => {
    assert.equal(series.keep(new Set(['2026-w01', '2026-w02', '2026-w03', '2026-w04'])), series);
  });

  test('a startup with no period left after keep has no series', () => {
    const kept = table([
      ['acme', '2026-w01', 1, 1, 1],
      ['late', '2026-w02', 1, 1, 1],
    ]).keep(new Set(['2026-w01']));
    assert.equal(kept.get('late'), undefined);
    assert.equal(kept.size, 1);
  });

  test('a figure that is not a count is refused rather than truncated', () => {
    const builder = SeriesTable.builder();
    assert.throws(() => builder.add('acme', '2026-w01', 1.5, 1, 1), RangeError);
    assert.throws(() => builder.add('acme', '2026-w01', 1, -1, 1), RangeError);
    assert.throws(() => builder.add('acme', '2026-w01', 1, 1, 0), RangeError);
  });

  test('more rows than the first allocation are all kept', () => {
    const builder = SeriesTable.builder();
    for (let week = 1; week <= 30; week++)
      for (let i = 0; i < 100; i++)
        builder.add(`org-${i}`, `2026-w${String(week).padStart(2, '0')}`, week + i, i, i + 1);
    const built = builder.finish();
    assert.equal(built.size, 100);
    const one = built.get('org-42')!;
    assert.equal(one.periods.length, 30);
    assert.deepEqual(one.commits.slice(0, 3), [43, 44, 45]);
    assert.equal(one.periods.at(-1), '2026-w30');
  });
});
