import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  lastCompletePeriod,
  parsePeriodSlug,
  periodContaining,
  periodEnd,
  shiftPeriod,
  weeksInIsoYear,
} from '../../src/domain/periods.js';

describe('ISO week periods', () => {
  test('a period has a slug like 2026-w47 and a name like "Week 47, 2026"', () => {
    const p = periodContaining(new Date('2026-11-18T12:00:00Z'));
    assert.equal(p.slug, '2026-w47');
    assert.equal(p.name, 'Week 47, 2026');
    assert.equal(p.startsOn, '2026-11-16');
    assert.equal(p.endsOn, '2026-11-22');
  });

  test('weeks belong to the ISO year of their Thursday', () => {
    assert.equal(periodContaining(new Date('2021-01-03T00:00:00Z')).slug, '2020-w53');
    assert.equal(periodContaining(new Date('2024-12-30T00:00:00Z')).slug, '2025-w01');
  });

  test('years have 52 or 53 ISO weeks', () => {
    assert.equal(weeksInIsoYear(2020), 53);
    assert.equal(weeksInIsoYear(2026), 53);
    assert.equal(weeksInIsoYear(2025), 52);
  });

  test('slugs parse back, case-insensitively, and impossible weeks are refused', () => {
    assert.equal(parsePeriodSlug('2026-W05').slug, '2026-w05');
    assert.throws(() => parsePeriodSlug('2025-w53'), RangeError);
    assert.throws(() => parsePeriodSlug('2026-47'), RangeError);
    assert.throws(() => parsePeriodSlug('<script>'), RangeError);
  });

  test('shifting crosses year boundaries', () => {
    assert.equal(shiftPeriod(parsePeriodSlug('2026-w01'), -1).slug, '2025-w52');
    assert.equal(shiftPeriod(parsePeriodSlug('2026-w53'), 1).slug, '2027-w01');
  });

  test('the last complete period is the week before the current one', () => {
    assert.equal(lastCompletePeriod(new Date('2026-11-22T23:00:00Z')).slug, '2026-w46');
    assert.equal(lastCompletePeriod(new Date('2026-11-23T00:00:00Z')).slug, '2026-w47');
  });

  test('windows end at the Monday after the period, exclusive', () => {
    assert.equal(periodEnd(parsePeriodSlug('2026-w47')).toISOString(), '2026-11-23T00:00:00.000Z');
  });
});
