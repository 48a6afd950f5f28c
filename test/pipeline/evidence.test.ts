import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { authorKey } from '../../src/pipeline/collect/authors.js';
import { scoreOrg } from '../../src/pipeline/stages.js';
import type { DailyCommits, RawOrgActivity, WatchlistEntry } from '../../src/domain/records.js';
import { PERIOD } from './fixtures.js';

/** Week 2026-w10: current window 2026-02-23 … 03-08, prior window 02-09 … 02-22, collected from 02-02. */
const entry: WatchlistEntry = { login: 'def-co', displayName: 'Def Co', sector: 'robotics' };

function day(date: string, author: string, commits: number, merges = 0): DailyCommits {
  return { date, repo: 'core', author, commits, ...(merges ? { merges } : {}) };
}

/** Two regulars in both windows, plus whatever the test adds; the look-back knows who committed before. */
function activity(extra: DailyCommits[], lastSeen: Record<string, string | null> = {}): RawOrgActivity {
  const team = ['ann', 'bo'].flatMap((a) => [day('2026-02-10', a, 5), day('2026-02-24', a, 5)]);
  const commits = [...team, ...extra];
  const keys = Object.fromEntries([...new Set(commits.map((c) => c.author))].map((k) => [k, null]));
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
