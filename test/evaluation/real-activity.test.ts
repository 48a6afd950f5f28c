import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { collectOrgs } from '../../src/pipeline/collect/collect.js';
import { GitHubClient } from '../../src/github/client.js';
import { computePeriod } from '../../src/pipeline/stages.js';
import { recordMetrics } from '../../src/domain/records.js';
import { signalLabel } from '../../src/domain/signal-label.js';
import {
  collectWindowOf,
  loadFixture,
  periodOf,
  realWeeks,
  type RealLabel,
  type RealWeek,
  VISIBLE_AT_END_MIN_SHARE,
  visibleShare,
} from '../../evaluation/real-activity.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { fakeOrgFromFixture } from '../helpers/real-activity.js';

/**
 * The real-activity evaluation set (data/eval/real-activity, labelled blind before the rules of evidence-v3 were
 * written): every labelled week replayed through the fake GitHub as the collector reads it, the pipeline's label
 * compared with the reader's. Only the `dev` half was looked at while the rules were written; the `test` half
 * measures them. The floors below are the scores the current rules reach (docs/methodology.md states them and the
 * goal of 90% on clear weeks, which they do not reach yet); a change that lowers one fails here.
 */
const FLOORS = { devClear: 14 / 16, testClear: 13 / 17, visibleClear: 27 / 29 };

interface Replayed {
  week: RealWeek;
  /** The week's record as collected today (the collector's default instant). */
  record: ReturnType<typeof computePeriod>['startups'][number];
  got: RealLabel;
  strength: string;
}

describe('real-activity evaluation set', () => {
  let fake: FakeGitHub;
  let client: GitHubClient;
  const replayed: Replayed[] = [];

  async function collect(week: RealWeek, asOf?: Date) {
    const fixture = loadFixture(week.org);
    fake.setOrg(fakeOrgFromFixture(fixture, asOf));
    const period = periodOf(week);
    const entry = { login: fixture.org, displayName: fixture.org, sector: 'robotics' as const };
    const window = collectWindowOf(period);
    const { outcomes } = await collectOrgs([entry], new Map(), {
      client,
      window: { ...window, collectedAt: asOf ?? new Date('2026-11-30T00:00:00Z') },
      fullRefresh: false,
      orgsPerQuery: 5,
      maxCommitPages: 30,
    });
    const activity = outcomes[0]!.activity;
    assert.ok(activity, `${week.org} ${week.period}: ${outcomes[0]!.message}`);
    return computePeriod([{ entry, raw: activity }], period).startups[0]!;
  }

  before(async () => {
    fake = await FakeGitHub.start({});
    client = new GitHubClient({
      token: fake.token,
      apiUrl: fake.url,
      concurrency: 4,
      queryIntervalMs: 0,
      retryBaseMs: 5,
    });
    for (const week of realWeeks()) {
      const s = await collect(week);
      const label = signalLabel(s.startup.signalType, recordMetrics(s));
      replayed.push({
        week,
        record: s,
        got: label.signalStrength === 'none' ? 'none' : s.startup.signalType,
        strength: label.signalStrength,
      });
    }
  });
  after(() => fake.close());

  const agreement = (split: 'dev' | 'test') => {
    const clear = replayed.filter((r) => r.week.clarity === 'clear' && r.week.split === split);
    return clear.filter((r) => r.got === r.week.label).length / clear.length;
  };

  test('the set has at least 30 organisation-weeks of at least 20 organisations, quiet weeks included', () => {
    const weeks = realWeeks();
    assert.ok(weeks.length >= 30);
    assert.ok(new Set(weeks.map((w) => w.org)).size >= 20);
    assert.ok(weeks.some((w) => w.label === 'none'));
  });

  test('agreement on the clearly labelled weeks of the dev half stays at its floor', () => {
    assert.ok(agreement('dev') >= FLOORS.devClear, `dev agreement ${agreement('dev')}`);
  });

  test('agreement on the clearly labelled weeks of the held-out test half stays at its floor', () => {
    assert.ok(agreement('test') >= FLOORS.testClear, `test agreement ${agreement('test')}`);
  });

  test('a week whose work was merged only after it ended shows none of it on the default branch at its end', () => {
    const week = (org: string, period: string) => realWeeks().find((w) => w.org === org && w.period === period)!;
    assert.equal(visibleShare(week('OpenC3', '2025-w43')), 0);
    assert.equal(visibleShare(week('beda-software', '2026-w21')), 1);
  });

  test('agreement on the clear weeks whose work was on the default branch by their end is at least 90%', () => {
    // A week whose labelled work reached the default branch only after the week ended cannot be seen in it point in
    // time (by design); a quiet week stays quiet either way, so only weeks labelled with a type are set apart.
    const visible = replayed.filter(
      (r) =>
        r.week.clarity === 'clear' && (r.week.label === 'none' || visibleShare(r.week) >= VISIBLE_AT_END_MIN_SHARE),
    );
    const agreed = visible.filter((r) => r.got === r.week.label).length / visible.length;
    assert.ok(agreed >= 0.9 && agreed >= FLOORS.visibleClear, `${agreed} of ${visible.length}`);
  });

  test('no week labelled as having no signal gets a strong label', () => {
    const strong = replayed.filter((r) => r.week.label === 'none' && r.strength === 'strong');
    assert.deepEqual(
      strong.map((r) => `${r.week.org} ${r.week.period}`),
      [],
    );
  });

  test('every labelled week collected as it closed and collected today gives the same record', async () => {
    for (const { week, record: now } of replayed) {
      const end = collectWindowOf(periodOf(week)).until;
      const then = await collect(week, end);
      assert.deepEqual(now.startup, then.startup, `${week.org} ${week.period}`);
      assert.deepEqual(recordMetrics(now), recordMetrics(then), `${week.org} ${week.period}`);
    }
  });
});
