import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import {
  buildMembersLedger,
  checkMembers,
  compareLeaders,
  pickWindow,
  readMembers,
  type LedgerInput,
  type MembersData,
  type TrendingAppearance,
} from '../../../src/core/documents/members.js';
import { MembersLedger } from '../../../src/schemas/documents.js';
import { BASE } from '../fixtures.js';

const cohort: MembersData['cohort'] = {
  name: 'Test cohort',
  total_seats: 10,
  anonymity_rule: 'Handles only, never real names.',
  version: '1.0',
  last_modified: '2026-10-01',
  hub_path: '/members',
  leaderboard_path: '/members#leaderboard',
  apply_path: '/members/apply',
};

const pick = (startup: string, picked_on: string, window_weeks: number) => ({ startup, picked_on, window_weeks });
const member = (handle: string, picks: ReturnType<typeof pick>[], sample = false) => ({
  handle,
  joined: '2026-09-01',
  sample,
  picks,
});

/** Seven published weeks, w40 … w46, and who was in their trending top 20. */
const published = ['2026-w40', '2026-w41', '2026-w42', '2026-w43', '2026-w44', '2026-w45', '2026-w46'].map(
  (slug, i) => ({ slug, publishedAt: new Date(Date.UTC(2026, 9, 5 + 7 * i, 6)) }),
);
const trending: TrendingAppearance[] = [
  { period: '2026-w39', login: 'bolt', rank: 18, name: 'Bolt' },
  { period: '2026-w42', login: 'acme', rank: 3, name: 'Acme' },
  { period: '2026-w46', login: 'cora', rank: 1, name: 'Cora' },
];

const fixture: MembersData = {
  cohort,
  members: [
    member('alpha', [pick('acme', '2026-10-07', 4), pick('bolt', '2026-09-30', 2)]),
    member('bravo', [pick('cora', '2026-11-04', 4), pick('zeta', '2026-11-11', 3)]),
    member('charlie', [pick('acme', '2026-10-20', 2)]),
    member('echo', [pick('acme', '2026-10-06', 2)], true),
    member('delta', [pick('ACME', '2026-10-06', 2)]),
  ],
};

const input = (data = fixture): LedgerInput => ({
  data,
  publishedPeriods: published,
  trending,
  names: new Map([['acme', 'Acme Robotics']]),
  baseUrl: BASE,
});
const ledger = buildMembersLedger(input());
const picksOf = (handle: string) => ledger.members.find((m) => m.handle === handle)!.picks;

describe('members ledger', () => {
  test('a pick covers the N ISO weeks after the week it was made in', () => {
    const window = pickWindow('2026-10-07', 4);
    assert.deepEqual([window.first.slug, window.last.slug], ['2026-w42', '2026-w45']);
  });

  test('a startup in the trending top 20 of a week inside the window is a hit, with that period as the source', () => {
    assert.deepEqual(
      (({ outcome, outcome_period, outcome_rank, source_url }) => ({
        outcome,
        outcome_period,
        outcome_rank,
        source_url,
      }))(picksOf('alpha')[0]!),
      { outcome: 'hit', outcome_period: '2026-w42', outcome_rank: 3, source_url: `${BASE}/periods/2026-w42` },
    );
  });

  test('a trending appearance before the window does not count, and a closed window without one is a miss', () => {
    const bolt = picksOf('alpha')[1]!;
    assert.equal(bolt.outcome, 'miss');
    assert.equal(bolt.source_url, `${BASE}/api/v1/dataset.jsonl`);
  });

  test('an appearance after the window closed is a miss too', () => {
    assert.equal(picksOf('charlie')[0]!.outcome, 'miss');
  });

  test('a window whose last week is not published yet is pending', () => {
    assert.equal(picksOf('bravo')[1]!.outcome, 'pending');
  });

  test('a hit is final before its window closes', () => {
    assert.deepEqual([picksOf('bravo')[0]!.outcome, picksOf('bravo')[0]!.window_last_period], ['hit', '2026-w49']);
  });

  test('logins match case-insensitively and names come from the data', () => {
    assert.deepEqual([picksOf('delta')[0]!.outcome, picksOf('delta')[0]!.name], ['hit', 'Acme Robotics']);
  });

  test('the leaderboard is sorted by hits, then closed windows, then picks, then handle', () => {
    assert.deepEqual(
      ledger.leaderboard.map((e) => [e.position, e.handle, e.hits, e.closed_windows, e.picks]),
      [
        [1, 'alpha', 1, 2, 2],
        [2, 'bravo', 1, 1, 2],
        [3, 'delta', 1, 1, 1],
        [4, 'echo', 1, 1, 1],
        [5, 'charlie', 0, 1, 1],
      ],
    );
  });

  test('the comparator orders equal records by handle', () => {
    const a = { hits: 1, closed_windows: 1, picks: 1, handle: 'a' };
    assert.ok(compareLeaders(a, { ...a, handle: 'b' }) < 0);
  });

  test('the aggregate adds up every pick and computes the hit rate over closed windows', () => {
    assert.deepEqual(ledger.aggregate, {
      total_picks: 7,
      total_hits: 4,
      total_closed_windows: 6,
      cohort_hit_rate_pct: 67,
    });
  });

  test('the hit rate is null while no window has closed', () => {
    const empty = buildMembersLedger(input({ cohort, members: [] }));
    assert.equal(empty.aggregate.cohort_hit_rate_pct, null);
  });

  test('sample members do not claim seats', () => {
    assert.deepEqual([ledger.cohort.seats_claimed, ledger.cohort.seats_open], [4, 6]);
  });

  test('last_modified follows the newest published period when it is newer than the data', () => {
    assert.equal(ledger.last_modified, '2026-11-16');
  });

  test('duplicate handles are rejected', () => {
    assert.throws(
      () => checkMembers({ cohort, members: [member('alpha', []), member('alpha', [])] }),
      /duplicate handle/,
    );
  });

  test('a pick made before the member joined is rejected', () => {
    assert.throws(
      () => checkMembers({ cohort, members: [member('alpha', [pick('acme', '2026-08-01', 2)])] }),
      /predates joining/,
    );
  });

  test('the ledger has exactly the spec fields', () => {
    assert.deepEqual(Object.keys(ledger), [
      'schema',
      'version',
      'license',
      'cohort',
      'aggregate',
      'members',
      'leaderboard',
      'grading_rules',
      'last_modified',
    ]);
    assert.deepEqual(Object.keys(ledger.grading_rules), ['hit', 'miss', 'pending']);
    assert.deepEqual(MembersLedger.parse(ledger), ledger);
  });

  test('the shipped content parses and its seats add up', () => {
    const data = readMembers(PACKAGED_CONTENT_DIR);
    const shipped = buildMembersLedger({ ...input(data) });
    const claimed = data.members.filter((m) => !m.sample).length;
    assert.deepEqual(
      [shipped.cohort.seats_claimed, shipped.cohort.seats_open],
      [claimed, data.cohort.total_seats - claimed],
    );
  });
});
