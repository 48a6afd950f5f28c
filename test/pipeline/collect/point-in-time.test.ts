import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { collectOrgs, type CollectOptions } from '../../../src/pipeline/collect/collect.js';
import { periodEnd } from '../../../src/domain/periods.js';
import { computePeriod } from '../../../src/pipeline/stages.js';
import { recordMetrics, type WatchlistEntry } from '../../../src/domain/records.js';
import { FakeGitHub, type FakeCommit, type FakeOrg, fakeClient } from '../../helpers/fake-github.js';
import { COLLECT_FROM, commits, PERIOD } from '../fixtures.js';

/**
 * Week 2026-w10 (windows end 2026-03-09 00:00 UTC) of an organisation whose history went on after the week: commits
 * dated inside the window but merged after it, later commits, later releases and tags. Collected "then" (as the
 * week closed) and "now" (weeks later), the record must be the same.
 */
const END = periodEnd(PERIOD);
const person = (login: string) => ({ login, email: `${login}@later.example`, name: login });

function history(): { then: FakeCommit[]; later: FakeCommit[] } {
  const then = [
    ...commits(6, '2026-02-12', person('ivy')),
    ...commits(5, '2026-02-19', person('jon')),
    ...commits(4, '2026-02-24', person('ivy')),
    ...commits(3, '2026-03-03', person('jon')),
    ...commits(2, '2026-01-10', person('kim')),
  ];
  const later = [
    // A branch of 30 commits written during the current window, merged a fortnight after it.
    ...commits(30, '2026-03-05', { ...person('lee'), landedAt: '2026-03-20T12:00:00Z' }),
    { committedDate: '2026-03-20T12:00:00Z', ...person('ivy'), parents: 2 },
    ...commits(12, '2026-03-16', person('ivy')),
    ...commits(9, '2026-04-02', person('mo')),
  ];
  return { then, later };
}

function org(withLater: boolean): FakeOrg {
  const { then, later } = history();
  return {
    login: 'later-co',
    repos: [
      {
        name: 'app',
        language: 'TypeScript',
        createdAt: '2023-01-01T00:00:00Z',
        commits: withLater ? [...then, ...later] : then,
        releases: [
          { tagName: 'v2.0.0', createdAt: '2026-03-02T10:00:00Z' },
          ...(withLater
            ? Array.from({ length: 30 }, (_, i) => ({
                tagName: `v2.1.${i}`,
                createdAt: new Date(Date.parse('2026-03-10T10:00:00Z') + i * 86_400_000).toISOString(),
              }))
            : []),
        ],
        tags: [
          { name: 'v2.0.0', date: '2026-03-02T09:00:00Z' },
          ...(withLater
            ? Array.from({ length: 25 }, (_, i) => ({
                name: `nightly-${i}`,
                date: `2026-04-0${(i % 9) + 1}T01:00:00Z`,
              }))
            : []),
        ],
      },
    ],
  };
}

const entry: WatchlistEntry = { login: 'later-co', displayName: 'Later Co', sector: 'robotics' };

describe('point-in-time collection', () => {
  let thenFake: FakeGitHub;
  let nowFake: FakeGitHub;
  before(async () => {
    thenFake = await FakeGitHub.start({ orgs: [org(false)] });
    nowFake = await FakeGitHub.start({ orgs: [org(true)] });
  });
  after(async () => {
    await thenFake.close();
    await nowFake.close();
  });

  const options = (fake: FakeGitHub, collectedAt: Date): CollectOptions => ({
    client: fakeClient(fake),
    window: { from: COLLECT_FROM, until: END, collectedAt },
    fullRefresh: false,
    orgsPerQuery: 5,
    maxCommitPages: 30,
  });

  async function record(fake: FakeGitHub, collectedAt: Date) {
    const { outcomes } = await collectOrgs([entry], new Map(), options(fake, collectedAt));
    assert.equal(outcomes[0]!.status, 'collected', outcomes[0]!.message);
    const s = computePeriod([{ entry, raw: outcomes[0]!.activity! }], PERIOD).startups[0]!;
    return { startup: s.startup, metrics: recordMetrics(s), activity: outcomes[0]!.activity! };
  }

  test('a past week collected weeks later gives the same record as collected when it closed', async () => {
    const then = await record(thenFake, new Date('2026-03-09T06:00:00Z'));
    const now = await record(nowFake, new Date('2026-04-20T06:00:00Z'));
    assert.deepEqual(now.startup, then.startup);
    assert.deepEqual(now.metrics, then.metrics);
    assert.deepEqual(now.activity.commits, then.activity.commits);
  });

  test('commits dated inside the window but merged after it are not counted', async () => {
    const now = await record(nowFake, new Date('2026-04-20T06:00:00Z'));
    assert.equal(now.startup.commitVelocity14d, 7);
    assert.ok(!now.activity.commits.some((c) => c.author === 'lee'));
  });

  test('the tip at the period end is read from the list of pushes and recorded', async () => {
    const now = await record(nowFake, new Date('2026-04-20T06:00:00Z'));
    const app = now.activity.repos[0]!;
    assert.equal(app.tip?.source, 'activity');
    assert.equal(app.defaultBranch, 'main');
  });

  test('releases and tags after the period are left out, and the lists are paged back to the window', async () => {
    const now = await record(nowFake, new Date('2026-04-20T06:00:00Z'));
    const app = now.activity.repos[0]!;
    assert.deepEqual(app.releases, [{ date: '2026-03-02', tag: 'v2.0.0' }]);
    assert.deepEqual(app.tags, [{ date: '2026-03-02', name: 'v2.0.0' }]);
    assert.equal(app.eventsFrom, undefined);
  });

  test('when the list of pushes does not reach back to the period end, the branch is read as it is now and the note says so', async () => {
    nowFake.activityRetentionDays = 0;
    try {
      const { outcomes } = await collectOrgs([entry], new Map(), options(nowFake, new Date()));
      assert.equal(outcomes[0]!.status, 'partial');
      assert.match(outcomes[0]!.message!, /app: GitHub's list of pushes does not reach back/);
    } finally {
      nowFake.activityRetentionDays = undefined;
    }
  });

  test('an organisation pushed since the period end keeps no probe ETag, so a later 304 cannot vouch for its activity', async () => {
    const { outcomes } = await collectOrgs([entry], new Map(), options(nowFake, new Date('2026-04-20T06:00:00Z')));
    assert.equal(outcomes[0]!.probeEtag, null);
    assert.deepEqual(outcomes[0]!.coversUntil, END);
  });

  test('an organisation not pushed since the period end covers up to the collection and keeps its probe ETag', async () => {
    const collectedAt = new Date('2026-03-09T06:00:00Z');
    const { outcomes } = await collectOrgs([entry], new Map(), options(thenFake, collectedAt));
    assert.ok(outcomes[0]!.probeEtag);
    assert.deepEqual(outcomes[0]!.coversUntil, collectedAt);
  });
});
