import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lastCompletePeriod, parsePeriodSlug } from '../../../src/domain/periods.js';
import {
  DEMO_COMMITS_PER_CONTRIBUTOR_14D,
  generateDemoDataset,
  generateDemoLatestWeek,
} from '../../../src/pipeline/demo/generate.js';
import { DEMO_PERIODS, DEMO_STARTUPS } from '../../../src/pipeline/demo/seed.js';
import { SIGNAL_RULE } from '../../../src/domain/rules.js';
import { SECTOR_SLUGS } from '../../../src/schemas/enums.js';
import { Startup } from '../../../src/schemas/signals.js';

const options = {
  seed: 'test-seed',
  startups: DEMO_STARTUPS,
  periods: DEMO_PERIODS,
  endPeriod: parsePeriodSlug('2026-w46'),
};
const dataset = generateDemoDataset(options);

describe('synthetic demo dataset', () => {
  test('has at least 300 startups with at least 20 in each of the 15 sectors', () => {
    assert.ok(dataset.entries.length >= 300);
    for (const slug of SECTOR_SLUGS) {
      assert.ok(dataset.entries.filter((e) => e.sector === slug).length >= 20, slug);
    }
  });

  test('has at least 26 consecutive weekly periods ending with the requested one', () => {
    assert.ok(dataset.periods.length >= 26);
    assert.equal(dataset.periods.at(-1)!.period.slug, '2026-w46');
    assert.equal(dataset.periods[0]!.period.slug, '2026-w17');
  });

  test('is deterministic: the same seed gives the same dataset', () => {
    const again = generateDemoDataset({ ...options, periods: 2 });
    const same = generateDemoDataset({ ...options, periods: 2 });
    assert.deepEqual(JSON.stringify(again), JSON.stringify(same));
  });

  test('a different seed gives different startups', () => {
    const other = generateDemoDataset({ ...options, seed: 'other', periods: 1 });
    assert.notDeepEqual(
      other.entries.map((e) => e.displayName),
      dataset.entries.map((e) => e.displayName),
    );
  });

  test('every startup says it is fictional and links only to reserved .example hosts', () => {
    for (const { startup } of dataset.periods.at(-1)!.ranked.startups) {
      assert.match(startup.description, /Fictional demo company/);
      for (const url of [startup.githubUrl, startup.websiteUrl, startup.linkedinUrl]) {
        assert.match(new URL(url).hostname, /\.example$/, url);
      }
    }
  });

  test('every published record matches the Startup schema', () => {
    for (const { startup } of dataset.periods.at(-1)!.ranked.startups) {
      assert.doesNotThrow(() => Startup.parse(startup), startup.name);
    }
  });

  test('organisation logins and names are unique', () => {
    assert.equal(new Set(dataset.entries.map((e) => e.login)).size, dataset.entries.length);
    assert.equal(new Set(dataset.entries.map((e) => e.displayName.toLowerCase())).size, dataset.entries.length);
  });

  test('the stages produce every signal type somewhere in the history', () => {
    const seen = new Set(dataset.periods.flatMap((p) => p.ranked.startups.map((s) => s.startup.signalType)));
    assert.equal(seen.size, 4);
  });

  test('every week shows all four signal types and none for more than half the startups', () => {
    for (const { period, ranked } of dataset.periods) {
      const counts = new Map<string, number>();
      for (const s of ranked.startups) counts.set(s.startup.signalType, (counts.get(s.startup.signalType) ?? 0) + 1);
      assert.equal(counts.size, 4, period.slug);
      for (const [type, n] of counts) assert.ok(n <= ranked.startups.length / 2, `${period.slug}: ${type} ${n}`);
    }
  });

  test('contributor growth is non-zero for most startups in most weeks of the last quarter', () => {
    const quarter = dataset.periods.slice(-13);
    const moving = dataset.entries.filter((e) => {
      const weeks = quarter.filter(({ ranked }) =>
        ranked.startups.some((s) => s.login === e.login && s.startup.contributorGrowth !== '+0%'),
      );
      return weeks.length > quarter.length / 2;
    });
    assert.ok(moving.length > dataset.entries.length / 2, `${moving.length} of ${dataset.entries.length}`);
  });

  test('commits per contributor per 14 days stay in the documented range', () => {
    const ratios = dataset.periods
      .flatMap((p) => p.ranked.startups)
      .filter((s) => s.startup.contributors > 0)
      .map((s) => s.startup.commitVelocity14d / s.startup.contributors)
      .sort((a, b) => a - b);
    const at = (q: number) => ratios[Math.floor(q * (ratios.length - 1))]!;
    assert.ok(at(0.05) >= DEMO_COMMITS_PER_CONTRIBUTOR_14D.low, `5th percentile ${at(0.05)}`);
    assert.ok(at(0.95) <= DEMO_COMMITS_PER_CONTRIBUTOR_14D.high, `95th percentile ${at(0.95)}`);
    assert.ok(ratios.at(-1)! <= DEMO_COMMITS_PER_CONTRIBUTOR_14D.ceiling, `largest ${ratios.at(-1)}`);
  });

  test('every record carries the evidence behind its type under the current rule', () => {
    for (const s of dataset.periods.at(-1)!.ranked.startups) {
      assert.equal(s.signalEvidence.rule, SIGNAL_RULE);
      assert.ok(
        s.signalEvidence.summary!.startsWith(
          s.signalEvidence.strength === 'none' ? 'No clear signal' : s.startup.signalType,
        ),
        s.signalEvidence.summary,
      );
    }
  });

  test('no trending startup lacks evidence, in any week', () => {
    for (const { period, ranked } of dataset.periods) {
      assert.equal(ranked.trending.length, 20, period.slug);
      for (const s of ranked.trending) assert.notEqual(s.signalEvidence.strength, 'none', `${period.slug} ${s.login}`);
    }
  });
});

test('the demo’s newest week generated alone is the newest week of the whole dataset', () => {
  const options = { seed: 'latest-alone', startups: 30, periods: 6, endPeriod: lastCompletePeriod(new Date()) };
  const whole = generateDemoDataset(options);
  const alone = generateDemoLatestWeek(options);
  assert.deepEqual(alone.entries, whole.entries);
  assert.deepEqual(alone.latest, whole.periods.at(-1));
});
