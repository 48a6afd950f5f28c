import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addDays } from '../../src/domain/periods.js';
import { addressKind } from '../../src/pipeline/collect/addresses.js';
import { authorKey } from '../../src/pipeline/collect/authors.js';
import { scoreOrg } from '../../src/pipeline/stages.js';
import type { DailyCommits, RawOrgActivity, WatchlistEntry } from '../../src/domain/records.js';
import { PERIOD } from './fixtures.js';

/** Week 2026-w10: current window 2026-02-23 … 03-08, prior window 02-09 … 02-22, collected from 02-02. */
const entry: WatchlistEntry = { login: 'def-co', displayName: 'Def Co', sector: 'robotics' };

function day(date: string, author: string, commits: number, merges = 0): DailyCommits {
  return { date, repo: 'core', author, commits, ...(merges ? { merges } : {}) };
}

/** Two regulars in both windows and before them, plus whatever the test adds; the look-back knows who committed before. */
function activity(extra: DailyCommits[], lastSeen: Record<string, string | null> = {}): RawOrgActivity {
  const team = ['ann', 'bo'].flatMap((a) => [day('2026-02-10', a, 5), day('2026-02-24', a, 5)]);
  const commits = [...team, ...extra];
  const keys = Object.fromEntries([...new Set(commits.map((c) => c.author))].map((k) => [k, null]));
  Object.assign(keys, { ann: '2026-01-20', bo: '2026-01-22' });
  return {
    profile: { login: 'def-co', name: null, description: null, location: null, blog: null },
    repos: [{ name: 'core', fork: false, createdAt: '2022-01-01T00:00:00Z', language: 'Go' }],
    commits,
    version: 3,
    lookback: { since: '2025-01-20', until: '2026-02-01', lastSeen: { ...keys, ...lastSeen } },
  };
}

const evidenceOf = (raw: RawOrgActivity) => scoreOrg({ entry, raw }, PERIOD).metrics.evidence!;
const classified = (raw: RawOrgActivity) => scoreOrg({ entry, raw }, PERIOD).classification;

/** A newcomer committing repeatedly: three commits on three days of the current window. */
const regular = (login: string) => [
  day('2026-02-25', login, 1),
  day('2026-02-27', login, 1),
  day('2026-03-02', login, 2),
];

describe('evidence of rule evidence-v3', () => {
  test('someone with a commit in the look-back is a returning contributor, not a new one', () => {
    const e = evidenceOf(activity(regular('vet'), { vet: '2025-09-01' }));
    assert.deepEqual([e.newContributors, e.returningContributors], [0, 1]);
    assert.equal(e.people![0]!.kind, 'returning');
    assert.equal(e.people![0]!.lastSeenBefore, '2025-09-01');
  });

  test('someone last seen before the twelve-month look-back counts as new', () => {
    const e = evidenceOf(activity(regular('old'), { old: '2024-11-01' }));
    assert.deepEqual([e.newContributors, e.newRegularContributors, e.returningContributors], [1, 1, 0]);
  });

  test('someone whose first commit in a year came in the prior window and who works on is new', () => {
    const e = evidenceOf(activity([day('2026-02-16', 'joined', 2), ...regular('joined')]));
    assert.deepEqual([e.newContributors, e.newRegularContributors, e.returningContributors], [1, 1, 0]);
    assert.equal(e.people![0]!.kind, 'new');
  });

  test('someone in the prior window with a commit in the year before it is neither new nor returning', () => {
    const e = evidenceOf(activity([day('2026-02-16', 'known', 2), ...regular('known')], { known: '2025-12-01' }));
    assert.deepEqual([e.newContributors, e.returningContributors, e.people!.length], [0, 0, 0]);
  });

  test('in an organisation begun in the prior window, its people then are founders and those after them new', () => {
    const raw = activity(regular('cy'));
    for (const key of Object.keys(raw.lookback!.lastSeen)) raw.lookback!.lastSeen[key] = null;
    const e = evidenceOf(raw);
    assert.deepEqual([e.newContributors, e.newRegularContributors], [1, 1]);
    assert.deepEqual(
      e.people!.map((p) => p.login),
      ['cy'],
    );
  });

  test('a newcomer with one commit is a one-off contribution, counted as new but not as a regular', () => {
    const e = evidenceOf(activity([day('2026-03-03', 'typo', 1)]));
    assert.deepEqual([e.newContributors, e.newRegularContributors], [1, 0]);
    assert.equal(e.people![0]!.regular, false);
  });

  test('one-off contributions never make a hiring burst, however many people make them', () => {
    const c = classified(activity(['p1', 'p2', 'p3', 'p4', 'p5'].map((p) => day('2026-03-03', p, 1))));
    assert.equal(c.evidence.scores!['Engineering hiring burst'], 0);
  });

  test('two new regulars on a team of two are a strong hiring burst, with the people as evidence', () => {
    const c = classified(activity([...regular('new1'), ...regular('new2')]));
    assert.equal(c.signalType, 'Engineering hiring burst');
    assert.equal(c.evidence.strength, 'strong');
    assert.match(c.evidence.summary!, /2 new people committing repeatedly/);
  });

  test('an author the look-back has no answer for is not counted as new', () => {
    const raw = activity(regular('ghost'));
    delete raw.lookback!.lastSeen['ghost'];
    assert.equal(evidenceOf(raw).newContributors, 0);
  });

  test('an AI agent committing under its own address is automation, not a contributor', () => {
    const key = authorKey({ name: 'Claude', email: 'noreply@anthropic.com', user: null });
    assert.equal(key, 'automation:Claude Code (Anthropic), committing as Claude');
    const s = scoreOrg({ entry, raw: activity([day('2026-03-03', key, 9)]) }, PERIOD);
    assert.equal(s.metrics.contributorsCurrent, 2);
    assert.equal(s.metrics.evidence!.automationCommits, 9);
  });

  test('the Copilot coding agent is automation by its login', () => {
    const s = scoreOrg({ entry, raw: activity([day('2026-03-03', 'Copilot', 4)]) }, PERIOD);
    assert.equal(s.metrics.contributorsCurrent, 2);
    assert.equal(s.metrics.evidence!.automationCommits, 4);
  });

  test('merge commits are not counted as commits of a person', () => {
    const s = scoreOrg({ entry, raw: activity([day('2026-03-03', 'ann', 3, 3)]) }, PERIOD);
    assert.equal(s.metrics.commitsCurrent, 10);
    assert.equal(s.metrics.evidence!.mergeCommits, 3);
  });

  test('the repositories carrying the work are named by human commits, most first, merges and automation apart', () => {
    const raw = activity([
      { date: '2026-03-02', repo: 'web', author: 'ann', commits: 13, merges: 2 },
      { date: '2026-03-03', repo: 'web', author: 'dependabot[bot]', commits: 9 },
      { date: '2026-03-03', repo: 'docs', author: 'bo', commits: 1 },
    ]);
    raw.repos.push(
      { name: 'web', fork: false, createdAt: '2022-01-01T00:00:00Z', language: 'TypeScript' },
      { name: 'docs', fork: false, createdAt: '2022-01-01T00:00:00Z', language: 'MDX' },
    );
    assert.deepEqual(evidenceOf(raw).activeRepos, [
      { repo: 'web', commits: 11, commitsPrior: 0 },
      { repo: 'core', commits: 10, commitsPrior: 10 },
      { repo: 'docs', commits: 1, commitsPrior: 0 },
    ]);
  });

  test('a week without evidence carries the no-clear-signal summary', () => {
    const c = classified(activity([]));
    assert.equal(c.evidence.strength, 'none');
    assert.match(c.evidence.summary!, /^No clear signal this week/);
  });
});

/** The join window of week 2026-w10 (evidence-v5): its first day, eight weeks before the period's end (2026-03-09). */
const JOIN_SINCE = '2026-01-12';

/** activity() with the look-back's question before the join window; the team was there long before. */
function withJoin(
  extra: DailyCommits[],
  lastSeen: Record<string, string | null>,
  beforeJoin: Record<string, string | null>,
) {
  const raw = activity(extra, lastSeen);
  const seenBeforeJoin: Record<string, string | null> = { ann: '2025-12-15', bo: '2025-11-30' };
  for (const key of Object.keys(raw.lookback!.lastSeen)) seenBeforeJoin[key] ??= null;
  raw.lookback = { ...raw.lookback!, joinSince: JOIN_SINCE, seenBeforeJoin: { ...seenBeforeJoin, ...beforeJoin } };
  return raw;
}

describe('new contributors of rule evidence-v5: joined in the last eight weeks', () => {
  test('someone who joined six weeks ago and now commits on three days is a new regular, not a returning one', () => {
    const e = evidenceOf(withJoin(regular('six'), { six: '2026-01-26' }, { six: null }));
    assert.deepEqual([e.newContributors, e.newRegularContributors, e.returningContributors], [1, 1, 0]);
    assert.equal(e.people![0]!.kind, 'new');
  });

  test('someone who joined five weeks ago and worked in the prior window too is still new', () => {
    const e = evidenceOf(
      withJoin([day('2026-02-16', 'five', 2), ...regular('five')], { five: '2026-02-02' }, { five: null }),
    );
    assert.deepEqual([e.newContributors, e.newRegularContributors], [1, 1]);
  });

  test('someone with a commit before the eight weeks, absent from the prior window, is returning', () => {
    const e = evidenceOf(withJoin(regular('ten'), { ten: '2026-01-05' }, { ten: '2026-01-05' }));
    assert.deepEqual([e.newContributors, e.returningContributors], [0, 1]);
    assert.equal(e.people![0]!.lastSeenBefore, '2026-01-05');
  });

  test('someone with a commit before the eight weeks who worked in the prior window is a member, neither new nor returning', () => {
    const e = evidenceOf(
      withJoin([day('2026-02-16', 'known', 2), ...regular('known')], { known: '2026-01-30' }, { known: '2025-10-01' }),
    );
    assert.deepEqual([e.newContributors, e.returningContributors, e.people!.length], [0, 0, 0]);
  });

  test('two people who joined in the eight weeks and commit repeatedly are a strong hiring burst, said in weeks', () => {
    const c = classified(
      withJoin([...regular('h1'), ...regular('h2')], { h1: '2026-01-20', h2: null }, { h1: null, h2: null }),
    );
    assert.equal(c.signalType, 'Engineering hiring burst');
    assert.equal(c.evidence.strength, 'strong');
    assert.equal(c.evidence.rule, 'evidence-v5');
    assert.match(
      c.evidence.summary!,
      /2 new people committing repeatedly \(joined in the last 8 weeks, no commit in the 12 months before\)/,
    );
  });

  test('in an organisation nobody committed to before the eight weeks, new means a first commit in the two windows', () => {
    const raw = withJoin(regular('cy'), { six: '2026-01-26' }, { ann: null, bo: null });
    raw.commits.push(...regular('six'));
    raw.lookback!.lastSeen['six'] = '2026-01-26';
    raw.lookback!.seenBeforeJoin!['six'] = null;
    const e = evidenceOf(raw);
    assert.deepEqual(
      e.people!.filter((p) => p.kind === 'new').map((p) => p.login),
      ['cy'],
    );
  });

  test('activity whose look-back did not ask who joined lately keeps rule evidence-v4 and its two windows', () => {
    const c = classified(activity(regular('six'), { six: '2026-01-26' }));
    assert.equal(c.evidence.rule, 'evidence-v4');
    assert.equal(evidenceOf(activity(regular('six'), { six: '2026-01-26' })).returningContributors, 1);
  });
});

/** A domain's kind as the collector records it (collect/addresses.ts: hashed, never the domain itself). */
const TEAM = addressKind('someone@def-co.example')!;
const ELSEWHERE = addressKind('someone@other-company.example')!;

/** withJoin() with the kinds of address each person committed from; ann and bo are members of long standing. */
function withAddresses(
  extra: DailyCommits[],
  newcomers: Record<string, string[]>,
  team: Record<string, string[]> = { ann: [TEAM], bo: [TEAM] },
) {
  const joined = Object.fromEntries(Object.keys(newcomers).map((k) => [k, null]));
  const raw = withJoin(extra, joined, joined);
  raw.addresses = { ...team, ...newcomers };
  return raw;
}

describe("outside help of rule evidence-v6: the organisation's own addresses", () => {
  test('two new regulars on a personal address, while the team commits from its own domain, are outside help, not a hiring burst', () => {
    const raw = withAddresses([...regular('c1'), ...regular('c2')], { c1: ['consumer'], c2: [ELSEWHERE] });
    const c = classified(raw);
    const e = evidenceOf(raw);
    assert.deepEqual([e.newContributors, e.newRegularContributors, e.outsideContributors], [2, 0, 2]);
    assert.equal(c.evidence.strength, 'none');
    assert.equal(c.evidence.rule, 'evidence-v6');
    assert.match(c.evidence.reasons!['Engineering hiring burst'], /2 from outside the organisation's own addresses/);
  });

  test("new regulars on the team's own domain are a hiring burst, marked as the organisation's", () => {
    const raw = withAddresses([...regular('h1'), ...regular('h2')], { h1: [TEAM], h2: [TEAM, 'consumer'] });
    assert.equal(classified(raw).evidence.strength, 'strong');
    assert.deepEqual(
      evidenceOf(raw).people!.map((p) => p.address),
      ['organisation', 'organisation'],
    );
  });

  test("a new regular on GitHub's no-reply address is counted: it hides where they work", () => {
    const e = evidenceOf(withAddresses([...regular('h1'), ...regular('n1')], { h1: [TEAM], n1: ['noreply'] }));
    assert.deepEqual([e.newRegularContributors, e.outsideContributors], [2, 0]);
    assert.equal(e.people!.find((p) => p.login === 'n1')!.address, null);
  });

  test('with only one member on a domain the organisation has none of its own, so nobody is set apart', () => {
    const raw = withAddresses(
      [...regular('c1'), ...regular('c2')],
      { c1: ['consumer'], c2: ['consumer'] },
      {
        ann: [TEAM],
        bo: ['consumer'],
      },
    );
    const e = evidenceOf(raw);
    assert.deepEqual([e.newRegularContributors, e.outsideContributors], [2, 0]);
    assert.equal(classified(raw).signalType, 'Engineering hiring burst');
  });

  test("a public mail provider shared by the whole team is not the organisation's own domain", () => {
    const raw = withAddresses(
      [...regular('c1'), ...regular('c2')],
      { c1: ['consumer'], c2: ['consumer'] },
      {
        ann: ['consumer'],
        bo: ['consumer'],
      },
    );
    assert.equal(evidenceOf(raw).outsideContributors, 0);
  });

  test('activity collected without address kinds keeps rule evidence-v5 and sets nobody apart', () => {
    const raw = withJoin([...regular('c1'), ...regular('c2')], { c1: null, c2: null }, { c1: null, c2: null });
    const e = evidenceOf(raw);
    assert.equal(e.outsideContributors, undefined);
    assert.equal(e.people![0]!.address, undefined);
    assert.equal(classified(raw).evidence.rule, 'evidence-v5');
  });
});

describe('deploy evidence of rule evidence-v4', () => {
  /** The team's repository with these tags, its events read from the baseline's start (2025-12-01). */
  function tagged(tags: [date: string, name: string][], repo: Partial<RawOrgActivity['repos'][number]> = {}) {
    const raw = activity([]);
    raw.repos[0] = {
      ...raw.repos[0]!,
      tags: tags.map(([date, name]) => ({ date, name })),
      eventsSince: '2025-12-01',
      ...repo,
    };
    return raw;
  }
  /** One tag a fortnight in the twelve weeks before the current window (2025-12-01 … 2026-02-22). */
  const usual: [string, string][] = [
    ['2025-12-03', 'v1.0.0'],
    ['2025-12-17', 'v1.1.0'],
    ['2025-12-31', 'v1.2.0'],
    ['2026-01-14', 'v1.3.0'],
    ['2026-01-28', 'v1.4.0'],
    ['2026-02-11', 'v1.5.0'],
  ];
  const current: [string, string][] = [
    ['2026-02-24', 'v1.6.0'],
    ['2026-02-27', 'v1.7.0'],
    ['2026-03-03', 'v1.8.0'],
    ['2026-03-06', 'v1.9.0'],
  ];

  test('the usual fortnight is the mean deploy days of the six windows before the current one', () => {
    const e = evidenceOf(tagged([...usual, ...current]));
    assert.deepEqual(
      [e.deployDaysCurrent, e.deployDaysPrior, e.deployDaysBaseline, e.deployBaselineWindows],
      [4, 1, 1, 6],
    );
  });

  test('four deploy days against a usual one a fortnight is a strong deploy spike', () => {
    const c = classified(tagged([...usual, ...current]));
    assert.equal(c.evidence.scores!['Deploy frequency spike'], 1);
    assert.match(
      c.evidence.reasons!['Deploy frequency spike'],
      /against 1 a fortnight on average in the 12 weeks before/,
    );
  });

  test('a busy team back from a quiet fortnight is compared with its usual rhythm, not with the quiet one', () => {
    // Three release days a fortnight until the prior window, which has none.
    const busy = usual
      .flatMap(([d, n]): [string, string][] => [
        [d, n],
        [addDays(d, 2), `${n}-1`],
        [addDays(d, 4), `${n}-2`],
      ])
      .filter(([d]) => d < '2026-02-09');
    const e = evidenceOf(tagged([...busy, ...current]));
    assert.deepEqual([e.deployDaysPrior, e.deployDaysBaseline], [0, 2.5]);
    assert.equal(classified(tagged([...busy, ...current])).evidence.scores!['Deploy frequency spike'], 0.6);
  });

  test('a prior window without a single commit is a pause, left out of the usual fortnight', () => {
    const raw = tagged([...usual.slice(0, 5), ...current]);
    raw.commits = raw.commits.filter((c) => c.date >= '2026-02-23' || c.date < '2026-02-09');
    const e = evidenceOf(raw);
    assert.deepEqual([e.deployBaselineWindows, e.deployDaysBaseline, e.deployBaselinePaused], [5, 1, true]);
  });

  test('release candidates and betas are versions on their way, not deploy days, and are counted apart', () => {
    const e = evidenceOf(
      tagged([
        ['2026-02-24', 'v9.0.0-rc.1'],
        ['2026-02-26', '@co/sdk@4.0.0-v4-beta.6'],
        ['2026-03-02', '1.2.0rc1'],
        ['2026-03-04', 'v9.0.0'],
      ]),
    );
    assert.deepEqual([e.deployDaysCurrent, e.tagsCurrent, e.prereleasesCurrent], [1, 1, 3]);
  });

  test('a tag of version 0.0.0 marks a package created, not a deploy day', () => {
    const e = evidenceOf(
      tagged([
        ['2026-03-02', '@co/connector-x@0.0.0'],
        ['2026-03-04', 'v0.0.0'],
      ]),
    );
    assert.deepEqual([e.deployDaysCurrent, e.tagsCurrent], [0, 0]);
  });

  test('a repository whose first tag came inside the prior window is shown apart, not compared', () => {
    const raw = tagged([['2026-02-12', 'v1.0.0'], ...current], { firstEventDay: '2026-02-12' });
    const e = evidenceOf(raw);
    assert.equal(e.deployDaysCurrent, 0);
    assert.deepEqual(e.deployNewRepos, [{ repo: 'core', since: '2026-02-12' }]);
    assert.match(
      classified(raw).evidence.reasons!['Deploy frequency spike'],
      /too short a time to have a rhythm: core/,
    );
  });

  test('a repository tagging for a month or more is compared, its earlier weeks counting as none', () => {
    const raw = tagged([['2026-02-02', 'v1.0.0'], ...current], { firstEventDay: '2026-02-02' });
    const e = evidenceOf(raw);
    assert.deepEqual([e.deployDaysCurrent, e.deployDaysBaseline, e.deployNewRepos], [4, 0.2, []]);
  });

  test('activity collected before the baseline is compared with the prior window alone', () => {
    const raw = tagged([['2026-02-11', 'v1.5.0'], ...current], { eventsSince: undefined });
    delete raw.repos[0]!.eventsSince;
    const e = evidenceOf(raw);
    assert.deepEqual([e.deployBaselineWindows, e.deployDaysBaseline], [1, 1]);
  });
});

describe('deploy and migration evidence of rule evidence-v4, beside the people', () => {
  test('releases of a fortnight in which no person committed count for nothing', () => {
    const raw = activity([]);
    raw.commits = raw.commits.filter((c) => c.date < '2026-02-23');
    raw.repos[0] = {
      ...raw.repos[0]!,
      eventsSince: '2025-12-01',
      tags: ['2026-02-24', '2026-02-26', '2026-03-02', '2026-03-04', '2026-03-06'].map((date, i) => ({
        date,
        name: `v3.${i}.0`,
      })),
    };
    const c = classified(raw);
    assert.equal(c.evidence.scores!['Deploy frequency spike'], 0);
    assert.match(c.evidence.reasons!['Deploy frequency spike'], /no commit by a person in the last 14 days/);
  });
});
