import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { collectOrgs } from '../../../src/pipeline/collect/collect.js';
import { foldChanges } from '../../../src/pipeline/collect/changes.js';
import type { FileChange } from '../../../src/domain/records.js';
import { FakeGitHub, type FakeOrg, fakeClient } from '../../helpers/fake-github.js';
import { COLLECT_FROM, commits, NOW } from '../fixtures.js';

const change = (path: string, status: FileChange['status'], lines = 10, previousPath?: string): FileChange => ({
  path,
  status,
  ...(previousPath ? { previousPath } : {}),
  additions: lines,
  deletions: 0,
});

describe('changed files of a window', () => {
  test('a file added in one span and removed in the next is gone from the folded list', () => {
    assert.deepEqual(foldChanges([[change('a.ts', 'added')], [change('a.ts', 'removed')]]), []);
  });

  test('the lines of a path changed in both spans are summed, and a file added first stays added', () => {
    assert.deepEqual(foldChanges([[change('a.ts', 'added', 10)], [change('a.ts', 'modified', 5)]]), [
      change('a.ts', 'added', 15),
    ]);
  });

  test('a file renamed in the second span keeps the name it had before the first', () => {
    assert.deepEqual(foldChanges([[change('a.js', 'modified', 3)], [change('a.ts', 'renamed', 4, 'a.js')]]), [
      change('a.ts', 'renamed', 7, 'a.js'),
    ]);
  });

  describe('a window whose comparison lists all of the 300 files GitHub lists', () => {
    // Week 2026-w10: the current window is 2026-02-23 … 03-08. A generator rewrites 400 files on 02-24; the deploy
    // pipeline is built on 03-04. One comparison of the window lists the generator's first 300 files only.
    const busy: FakeOrg = {
      login: 'busy-co',
      repos: [
        {
          name: 'app',
          language: 'Go',
          createdAt: '2022-01-01T00:00:00Z',
          commits: [
            ...commits(3, '2026-02-10', { login: 'ann' }),
            {
              ...commits(1, '2026-02-24', { login: 'ann' })[0]!,
              files: Array.from({ length: 400 }, (_, i) => ({
                path: `internal/gen/file-${String(i).padStart(3, '0')}.go`,
                status: 'modified' as const,
                additions: 40,
                deletions: 40,
              })),
            },
            ...['.github/workflows/deploy.yml', 'deploy/Dockerfile', 'deploy/compose.yml'].map((path, i) => ({
              ...commits(1, `2026-03-0${4 + i}`, { login: 'ann' })[0]!,
              files: [{ path, status: 'added' as const, additions: 60, deletions: 0 }],
            })),
          ],
        },
      ],
    };
    let fake: FakeGitHub;
    let files: FileChange[];
    let truncated: boolean;
    before(async () => {
      fake = await FakeGitHub.start({ orgs: [busy] });
      const client = fakeClient(fake);
      const { outcomes } = await collectOrgs(
        [{ login: 'busy-co', displayName: 'Busy Co', sector: 'robotics' }],
        new Map(),
        {
          client,
          window: { from: COLLECT_FROM, until: NOW },
          fullRefresh: true,
          orgsPerQuery: 5,
          maxCommitPages: 30,
        },
      );
      const current = outcomes[0]!.activity!.repos[0]!.changes!.at(-1)!;
      ({ files, truncated } = current);
    });
    after(() => fake.close());

    test('is read in shorter spans, so the files behind the first 300 are listed', () => {
      for (const path of ['.github/workflows/deploy.yml', 'deploy/Dockerfile', 'deploy/compose.yml']) {
        assert.ok(
          files.some((f) => f.path === path),
          path,
        );
      }
    });

    test('still says it is cut short when one day alone changed more than 300 files', () => {
      assert.equal(truncated, true);
      assert.equal(files.filter((f) => f.path.startsWith('internal/gen/')).length, 300);
    });
  });
});
