import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { collectOrgs } from '../../src/pipeline/collect/collect.js';
import type { GitHubClient } from '../../src/github/client.js';
import { computePeriod } from '../../src/pipeline/stages.js';
import { recordMetrics } from '../../src/domain/records.js';
import { signalLabel } from '../../src/domain/signal-label.js';
import {
  collectWindowOf,
  loadFixture,
  periodOf,
  REAL_ACTIVITY_2_DIR,
  REAL_ACTIVITY_3_DIR,
  REAL_ACTIVITY_4_DIR,
  REAL_ACTIVITY_5_DIR,
  REAL_ACTIVITY_6_DIR,
  REAL_ACTIVITY_7_DIR,
  REAL_ACTIVITY_DIR,
  realWeeks,
  type OrgFixture,
  type RealLabel,
  type RealWeek,
  VISIBLE_AT_END_MIN_SHARE,
  visibleShare,
} from '../../evaluation/real-activity.js';
import { FakeGitHub, fakeClient } from '../helpers/fake-github.js';
import { fakeOrgFromFixture } from '../helpers/real-activity.js';

/**
 * The real-activity evaluation sets (data/eval/real-activity*, each labelled blind before the rules it measures were
 * changed): every labelled week replayed through the fake GitHub as the collector reads it, the pipeline's label
 * compared with the reader's. Set 1's `dev` half was read while rule evidence-v3 was written and its `test` half
 * measured it; sets 2 and 3 (other organisations, labelled point in time) were read while evidence-v4 was written, so
 * on every set the figures are now tuned ones (docs/pipeline.md gives each set's first, clean figure). The floors are
 * the scores the current rules reach; a change that lowers one fails here.
 */
const SETS = [
  { name: 'set 1', dir: REAL_ACTIVITY_DIR, floors: { devClear: 14 / 16, testClear: 14 / 17, visibleClear: 27 / 29 } },
  { name: 'set 2', dir: REAL_ACTIVITY_2_DIR, floors: { testClear: 15 / 17, visibleClear: 15 / 17 } },
  // Labelled while evidence-v4 was written; its first replay (10 of 15) came once it was committed, and its misses
  // were then read to refine the rule: its figure is a tuned one too.
  { name: 'set 3', dir: REAL_ACTIVITY_3_DIR, floors: { testClear: 12 / 15, visibleClear: 12 / 15 } },
  // Labelled while set 3's misses were read; first replayed (13 of 19) once the rules they led to were committed,
  // then read for pre-releases: its figure is a tuned one too.
  { name: 'set 4', dir: REAL_ACTIVITY_4_DIR, floors: { testClear: 15 / 19, visibleClear: 15 / 19 } },
  // Labelled on evidence-v4 as committed and first replayed on it, unchanged (12 of 22); then read for the hiring
  // rule of evidence-v5 (13 of 22), for product code under deploy folders (14 of 22) and for outside help (15 of 22).
  { name: 'set 5', dir: REAL_ACTIVITY_5_DIR, floors: { testClear: 15 / 22, visibleClear: 15 / 22 } },
  // Labelled while evidence-v5 was written, first replayed on v4 and v5 alike (12 of 16, the same weeks); then read
  // for product code under deploy folders (13 of 16).
  { name: 'set 6', dir: REAL_ACTIVITY_6_DIR, floors: { testClear: 13 / 16, visibleClear: 13 / 16 } },
  // Labelled while evidence-v6 was written and first replayed on it (11 of 17: two clear hiring weeks, fifteen clear
  // quiet ones); then read for infrastructure files changed by automation alone (12 of 17).
  { name: 'set 7', dir: REAL_ACTIVITY_7_DIR, floors: { testClear: 12 / 17, visibleClear: 12 / 17 } },
] as const;

/**
 * Quiet weeks the rules still call strong, with the reader's reason: a change that adds one fails, one that removes
 * one updates this list. Set 2, clockworklabs 2025-w32 (unclear): one release tagged per component on one day, with
 * two per-language patch tags before it and one after, four deploy days against none in the twelve weeks before; the
 * reader counts one release and its patches. Set 4, MystenLabs 2025-w06 (clear): a repository begun five weeks before,
 * whose builders committed in the organisation's other repositories, which the fixture (one repository) does not hold.
 * Set 2, hatchet-dev 2026-w25 (unclear): two first-time contributors, joined in the eight weeks, making small docs and
 * dashboard fixes on five days each, from personal addresses in a team with no e-mail domain of its own (the reader
 * reads their content as outside help). Set 6, workos 2026-w07 (unclear): six tags in a fortnight
 * after a pause, the reader's usual rhythm. Set 7 (its clean replay): makeplane 2025-w46 (clear), a Next.js
 * configuration replaced by a React Router one that the reader reads as product work with a build-tool bump;
 * commercetools 2025-w03 (clear), per-package changeset tags resuming after the holiday; DopplerHQ 2026-w12 (unclear).
 */
const KNOWN_STRONG_ON_QUIET: Record<(typeof SETS)[number]['name'], string[]> = {
  'set 1': [],
  'set 2': ['hatchet-dev 2026-w25', 'clockworklabs 2025-w32'],
  'set 3': [],
  'set 4': ['MystenLabs 2025-w06'],
  'set 5': [],
  'set 6': ['workos 2026-w07'],
  'set 7': ['makeplane 2025-w46', 'commercetools 2025-w03', 'DopplerHQ 2026-w12'],
};

/**
 * Weeks whose busiest repository tagged so much after them that, collected today, its tags cannot be paged back to
 * the week (the collector reads at most ten pages of a hundred a list): the record leaves that repository out of the
 * deploy evidence and says so (deployIncompleteRepos), where the record collected as the week closed counts its tags.
 * Set 7, cloudquery 2025-w03: 2,245 tags after the week in a monorepo tagging each plugin's releases.
 */
const TAGS_BEYOND_REACH_TODAY: string[] = ['cloudquery 2025-w03'];

/**
 * Each fixture read once (a week is collected twice and its visible share read too); nothing here changes one. A
 * set's fixtures are let go once its tests are done.
 */
const fixtures = new Map<string, OrgFixture>();
function fixtureOf(week: RealWeek): OrgFixture {
  const key = `${week.dir}\0${week.org}`;
  let fixture = fixtures.get(key);
  if (!fixture) fixtures.set(key, (fixture = loadFixture(week.org, week.dir)));
  return fixture;
}

/**
 * Weeks replayed at once, each on its own fake GitHub and client (a fake serves one state of an organisation at a
 * time, and one week's requests follow one another): a week is collected exactly as it would be alone, while the
 * others use the time it spends waiting on its client's queues and the network.
 */
const LANES = 4;

interface Lane {
  fake: FakeGitHub;
  client: GitHubClient;
}

/** `work` for every item, on the lanes at once (one item per lane at a time); the results in the items' order. */
async function onLanes<T, R>(lanes: Lane[], items: readonly T[], work: (lane: Lane, item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    lanes.map(async (lane) => {
      while (next < items.length) {
        const i = next++;
        try {
          results[i] = await work(lane, items[i]!);
        } catch (err) {
          next = items.length; // the other lanes stop after their current item
          throw err;
        }
      }
    }),
  );
  return results;
}

interface Replayed {
  week: RealWeek;
  /** The week's record as collected today (the collector's default instant). */
  record: ReturnType<typeof computePeriod>['startups'][number];
  got: RealLabel;
  strength: string;
}

for (const set of SETS) {
  describe(`real-activity evaluation ${set.name}`, () => {
    const lanes: Lane[] = [];
    const replayed: Replayed[] = [];
    const weeks = realWeeks(set.dir);

    async function collect({ fake, client }: Lane, week: RealWeek, asOf?: Date) {
      const fixture = fixtureOf(week);
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
      for (let i = 0; i < LANES; i++) {
        const fake = await FakeGitHub.start({});
        lanes.push({ fake, client: fakeClient(fake) });
      }
      const records = await onLanes(lanes, weeks, (lane, week) => collect(lane, week));
      weeks.forEach((week, i) => {
        const s = records[i]!;
        const label = signalLabel(s.startup.signalType, recordMetrics(s));
        replayed.push({
          week,
          record: s,
          got: label.signalStrength === 'none' ? 'none' : s.startup.signalType,
          strength: label.signalStrength,
        });
      });
    });
    after(async () => {
      await Promise.all(lanes.map((lane) => lane.fake.close()));
      for (const week of weeks) fixtures.delete(`${week.dir}\0${week.org}`);
    });

    const agreement = (split: 'dev' | 'test') => {
      const clear = replayed.filter((r) => r.week.clarity === 'clear' && r.week.split === split);
      return clear.filter((r) => r.got === r.week.label).length / clear.length;
    };

    test('the set has at least 30 organisation-weeks of at least 20 organisations, quiet weeks included', () => {
      assert.ok(weeks.length >= 30);
      assert.ok(new Set(weeks.map((w) => w.org)).size >= 20);
      assert.ok(weeks.some((w) => w.label === 'none'));
    });

    if ('devClear' in set.floors) {
      const floor = set.floors.devClear;
      test('agreement on the clearly labelled weeks of the dev half stays at its floor', () => {
        assert.ok(agreement('dev') >= floor, `dev agreement ${agreement('dev')}`);
      });
    }

    test('agreement on the clearly labelled weeks of the held-out test half stays at its floor', () => {
      assert.ok(agreement('test') >= set.floors.testClear, `test agreement ${agreement('test')}`);
    });

    // A week whose labelled work reached the default branch only after the week ended cannot be seen in it point in
    // time (by design); a quiet week stays quiet either way, so only weeks labelled with a type are set apart.
    const visibleAgreement = () => {
      const visible = replayed.filter(
        (r) =>
          r.week.clarity === 'clear' &&
          (r.week.label === 'none' || visibleShare(r.week, fixtureOf(r.week)) >= VISIBLE_AT_END_MIN_SHARE),
      );
      return visible.filter((r) => r.got === r.week.label).length / visible.length;
    };

    test('agreement on the clear weeks whose work was on the default branch by their end stays at its floor', () => {
      assert.ok(visibleAgreement() >= set.floors.visibleClear, `${visibleAgreement()}`);
    });

    if (set.floors.visibleClear >= 0.9) {
      test('agreement on the clear weeks whose work was on the default branch by their end is at least 90%', () => {
        assert.ok(visibleAgreement() >= 0.9, `${visibleAgreement()}`);
      });
    }

    test('no week labelled as having no signal gets a strong label, but for the known ones', () => {
      const strong = replayed.filter((r) => r.week.label === 'none' && r.strength === 'strong');
      assert.deepEqual(
        strong.map((r) => `${r.week.org} ${r.week.period}`),
        KNOWN_STRONG_ON_QUIET[set.name],
      );
    });

    test('every labelled week collected as it closed and collected today gives the same record', async () => {
      const atEnd = await onLanes(lanes, replayed, (lane, { week }) =>
        collect(lane, week, collectWindowOf(periodOf(week)).until),
      );
      replayed.forEach(({ week, record: now }, i) => {
        const then = atEnd[i]!;
        assert.deepEqual(now.startup, then.startup, `${week.org} ${week.period}`);
        if (TAGS_BEYOND_REACH_TODAY.includes(`${week.org} ${week.period}`)) {
          // The same record; today the repository's tags are out of reach, its deploy evidence left out, and it says so.
          assert.ok(now.metrics.evidence!.deployIncompleteRepos.length > 0, `${week.org} ${week.period}`);
          assert.deepEqual(then.metrics.evidence!.deployIncompleteRepos, [], `${week.org} ${week.period}`);
          return;
        }
        assert.deepEqual(recordMetrics(now), recordMetrics(then), `${week.org} ${week.period}`);
      });
    });
  });
}

test('a week whose work was merged only after it ended shows none of it on the default branch at its end', () => {
  const week = (org: string, period: string) => realWeeks().find((w) => w.org === org && w.period === period)!;
  assert.equal(visibleShare(week('OpenC3', '2025-w43')), 0);
  assert.equal(visibleShare(week('beda-software', '2026-w21')), 1);
});
