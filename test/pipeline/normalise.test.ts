import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normaliseActivity } from '../../src/pipeline/normalise.js';
import type { FilteredActivity } from '../../src/domain/records.js';

const activity: FilteredActivity = {
  profile: { login: 'acme', name: 'Acme', description: null, location: 'Berlin, Germany', blog: null },
  repos: [
    { name: 'old-go', fork: false, createdAt: '2024-03-01T00:00:00Z', language: 'Go' },
    { name: 'new-go', fork: false, createdAt: '2026-11-01T10:00:00Z', language: 'Go' },
    { name: 'new-rust', fork: false, createdAt: '2026-10-24T00:00:00Z', language: 'Rust' }, // exactly 30 days before
    { name: 'too-old', fork: false, createdAt: '2026-10-23T23:59:59Z', language: 'Zig' },
    { name: 'future', fork: false, createdAt: '2026-11-23T00:00:00Z', language: 'Elixir' },
  ],
  commits: [
    { date: '2026-11-22', repo: 'old-go', author: 'alice', commits: 4 },
    { date: '2026-11-09', repo: 'old-go', author: 'Bob', commits: 6 }, // first day of the current window
    { date: '2026-11-08', repo: 'old-go', author: 'bob', commits: 2 }, // last day of the prior window
    { date: '2026-10-26', repo: 'new-go', author: 'carol', commits: 1 },
  ],
};

describe('normalise stage', () => {
  const m = normaliseActivity(activity, '2026-11-23');

  test('counts commits in the current and prior 14-day windows', () => {
    assert.equal(m.commitsCurrent, 10);
    assert.equal(m.commitsPrior, 3);
  });

  test('counts unique human authors per window, case-insensitively', () => {
    assert.equal(m.contributorsCurrent, 2);
    assert.equal(m.contributorsPrior, 2);
    assert.equal(m.contributors28d, 3);
  });

  test('counts repositories created in the 30 days before the window end', () => {
    assert.equal(m.newRepos30d, 2);
  });

  test('notes languages of new repositories that no older repository uses', () => {
    assert.deepEqual(m.newLanguages, ['Rust']);
  });

  test('turns the location into a country', () => {
    assert.equal(m.geography, 'Germany');
  });
});
