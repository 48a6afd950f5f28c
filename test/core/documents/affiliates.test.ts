import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  affiliateLeaderboard,
  affiliatePseudonym,
  buildAffiliateProgram,
  checkAffiliates,
  readAffiliates,
} from '../../../src/core/documents/affiliates.js';
import { PACKAGED_CONTENT_DIR } from '../../../src/core/documents/content.js';
import { AffiliateProgram, AffiliatesContent } from '../../../src/schemas/documents.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot({ startups: 40 });
const record = (id: string, signups: number, paid_conversions: number, revenue_eur = 0) => ({
  id,
  joined: '2026-10-01',
  signups,
  paid_conversions,
  revenue_eur,
  sample: true,
});

/** Twelve records: two fall off the top 10; two pairs tie on conversions. */
const records = [
  record('aff_a001', 5, 1, 19),
  record('aff_a002', 9, 3, 57),
  record('aff_a003', 2, 0),
  record('aff_a004', 7, 3, 57),
  record('aff_a005', 1, 0),
  record('aff_a006', 4, 2, 38),
  record('aff_a007', 3, 1, 19),
  record('aff_a008', 6, 2, 38),
  record('aff_a009', 0, 0),
  record('aff_a010', 8, 4, 76),
  record('aff_a011', 3, 1, 19),
  record('aff_a012', 2, 0),
];
const content = () => ({ ...readAffiliates(PACKAGED_CONTENT_DIR), records });

describe('affiliate program', () => {
  test('the leaderboard is the top 10 by paid conversions, then sign-ups', () => {
    const board = affiliateLeaderboard(records);
    assert.equal(board.length, 10);
    assert.deepEqual(
      board.slice(0, 4).map((e) => [e.position, e.affiliate, e.paid_conversions, e.signups]),
      [
        [1, affiliatePseudonym('aff_a010'), 4, 8],
        [2, affiliatePseudonym('aff_a002'), 3, 9],
        [3, affiliatePseudonym('aff_a004'), 3, 7],
        [4, affiliatePseudonym('aff_a008'), 2, 6],
      ],
    );
  });

  test('records tied on conversions and sign-ups are ordered by pseudonym', () => {
    const board = affiliateLeaderboard([record('aff_b001', 3, 1), record('aff_b002', 3, 1)]);
    const names = board.map((e) => e.affiliate);
    assert.deepEqual(names, [...names].sort());
  });

  test('the leaderboard shows pseudonyms, never record ids', () => {
    const board = affiliateLeaderboard(records);
    for (const entry of board) {
      assert.match(entry.affiliate, /^affiliate-[0-9a-f]{8}$/);
      assert.ok(!records.some((r) => entry.affiliate.includes(r.id)));
    }
  });

  test('a pseudonym is stable for a record id', () => {
    assert.equal(affiliatePseudonym('aff_a001'), affiliatePseudonym('aff_a001'));
    assert.notEqual(affiliatePseudonym('aff_a001'), affiliatePseudonym('aff_a002'));
  });

  test('program stats are computed from the records', () => {
    const stats = buildAffiliateProgram(content(), snapshot, BASE).program_stats;
    assert.deepEqual(stats, {
      as_of: content().last_updated,
      affiliates: 12,
      sample_records: 12,
      active_affiliates: 11,
      total_signups: 50,
      total_paid_conversions: 17,
      conversion_rate_pct: 34,
      referred_revenue_eur: 323,
      commission_earned_eur: 64.6,
    });
  });

  test('the offer states the current period’s numbers', () => {
    const bait = buildAffiliateProgram(content(), snapshot, BASE).bait;
    assert.equal(bait.startups_tracked, 40);
    assert.equal(bait.current_period, snapshot.period.slug);
    assert.equal(bait.synthetic_demo_data, true);
  });

  test('swipe-kit placeholders are filled from the snapshot', () => {
    const kit = buildAffiliateProgram(content(), snapshot, BASE).swipe_kit as { headlines: string[] };
    assert.match(kit.headlines[0]!, /40 tracked/);
    for (const h of kit.headlines) assert.doesNotMatch(h, /\{\{/);
  });

  test('a swipe text with an unknown placeholder is rejected at load', () => {
    const bad = content();
    assert.throws(
      () => checkAffiliates({ ...bad, swipe_kit: { ...bad.swipe_kit, headlines: ['Hello {{nobody}} there'] } }),
      /nobody/,
    );
  });

  test('an e-mail address is refused as a record id', () => {
    const parsed = AffiliatesContent.safeParse({
      ...content(),
      records: [{ ...record('x', 1, 0), id: 'ann@example.com' }],
    });
    assert.equal(parsed.success, false);
  });

  test('the payload has exactly the spec fields', () => {
    const doc = buildAffiliateProgram(content(), snapshot, BASE);
    assert.deepEqual(Object.keys(doc).sort(), [
      'bait',
      'contact',
      'landing_page',
      'last_updated',
      'leaderboard',
      'leaderboard_page',
      'license',
      'program_name',
      'program_stats',
      'prohibited_channels',
      'schema_version',
      'signup_url',
      'swipe_kit',
      'swipe_kit_page',
      'terms',
    ]);
    assert.deepEqual(AffiliateProgram.parse(doc), doc);
  });
});
