import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { filterActivity, isBotAuthor } from '../../src/pipeline/filter.js';
import type { RawOrgActivity } from '../../src/domain/records.js';

const profile = { login: 'acme', name: 'Acme', description: null, location: null, blog: null };
const raw: RawOrgActivity = {
  profile,
  repos: [
    { name: 'app', fork: false, createdAt: '2025-01-01T00:00:00Z', language: 'Go' },
    { name: 'forked-lib', fork: true, createdAt: '2025-01-01T00:00:00Z', language: 'Go' },
  ],
  commits: [
    { date: '2026-11-20', repo: 'app', author: 'alice', commits: 3 },
    { date: '2026-11-20', repo: 'forked-lib', author: 'alice', commits: 5 },
    { date: '2026-11-20', repo: 'app', author: 'dependabot[bot]', commits: 2 },
    { date: '2026-11-20', repo: 'app', author: 'renovate-bot', commits: 2 },
    { date: '2026-10-26', repo: 'app', author: 'bob', commits: 1 }, // 28 days before 2026-11-23 → first kept day
    { date: '2026-10-25', repo: 'app', author: 'bob', commits: 1 }, // 29 days before: outside the look-back
    { date: '2026-11-23', repo: 'app', author: 'carol', commits: 4 }, // the window end itself is excluded
  ],
};

describe('filter stage', () => {
  test('drops fork repositories and the commits made to them', () => {
    const out = filterActivity(raw, '2026-11-23');
    assert.deepEqual(
      out.repos.map((r) => r.name),
      ['app'],
    );
    assert.ok(out.commits.every((c) => c.repo === 'app'));
  });

  test('drops bot authors', () => {
    const out = filterActivity(raw, '2026-11-23');
    assert.ok(!out.commits.some((c) => c.author.includes('bot')));
  });

  test('keeps exactly the 28 days before the window end', () => {
    const out = filterActivity(raw, '2026-11-23');
    assert.deepEqual(
      out.commits.map((c) => `${c.date}:${c.author}`),
      ['2026-11-20:alice', '2026-10-26:bob'],
    );
  });

  test('recognises GitHub App accounts and common automation as bots, not people', () => {
    for (const bot of ['dependabot[bot]', 'github-actions[bot]', 'renovate-bot', 'snyk-bot', 'pre-commit-ci[bot]']) {
      assert.equal(isBotAuthor(bot), true, bot);
    }
    for (const human of ['alice', 'robotics-dev', 'abbott', 'botond']) assert.equal(isBotAuthor(human), false, human);
  });
});
