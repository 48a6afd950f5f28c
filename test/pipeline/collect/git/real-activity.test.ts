import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { collectOrgs } from '../../../../src/pipeline/collect/collect.js';
import { collectWindowsFromGit } from '../../../../src/pipeline/collect/git/collect.js';
import type { RawOrgActivity, WatchlistEntry } from '../../../../src/domain/records.js';
import {
  branchTip,
  collectWindowOf,
  loadFixture,
  periodOf,
  realWeeks,
  repoName,
  type OrgFixture,
} from '../../../../evaluation/real-activity.js';
import { FakeGitHub, fakeClient } from '../../../helpers/fake-github.js';
import { fakeOrgFromFixture } from '../../../helpers/real-activity.js';
import { importGraph, tempDir } from '../../../helpers/git-scenario.js';

/**
 * Real commit metadata (the real-activity evaluation set: pseudonymised default-branch history of watchlist
 * organisations) written into git repositories with git's own fast-import, and served by the fake GitHub from the
 * same fixture: for every labelled week of a few organisations, the commits, merges, look-back and tags read from git
 * are those the API collector reads. (The fixtures keep each commit's changed paths, not the files' contents, so the
 * files each window changed are not compared here.)
 */
const ORGS = ['PaddleHQ', 'teamhanko', 'xataio'];

async function writeClones(fixture: OrgFixture, clonesDir: string): Promise<void> {
  for (const repo of fixture.repos) {
    await importGraph(
      path.join(clonesDir, fixture.org, `${repoName(repo)}.git`),
      repo.defaultBranch,
      branchTip(repo),
      repo.commits.map((c) => ({
        oid: c.oid,
        parents: c.parents,
        author: c.author,
        authorDate: c.authorDate,
        committer: c.committer,
        committedDate: c.committedDate,
      })),
      repo.tags,
    );
  }
}

function shared(a: RawOrgActivity) {
  return {
    commits: a.commits,
    lookback: a.lookback,
    repos: a.repos.map((r) => ({ name: r.name, tags: r.tags })),
  };
}

describe('git source on real activity', () => {
  let weeksWithTags = 0;
  let tmp: string;
  let fake: FakeGitHub;
  before(async () => {
    tmp = await tempDir('git-real');
    const orgs = [];
    for (const org of ORGS) {
      const fixture = loadFixture(org);
      await writeClones(fixture, path.join(tmp, 'clones'));
      const served = fakeOrgFromFixture(fixture);
      // Git knows authors by e-mail only: the API side is served unlinked too.
      for (const repo of served.repos) for (const c of repo.commits) c.login = null;
      orgs.push(served);
    }
    fake = await FakeGitHub.start({ orgs });
  });
  after(async () => {
    await fake.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  for (const org of ORGS) {
    test(`${org}: every labelled week read from git gives the API collector's commits, look-back and tags`, async () => {
      const weeks = realWeeks().filter((w) => w.org === org);
      assert.ok(weeks.length > 0);
      const entry: WatchlistEntry = { login: org, displayName: org, sector: 'data-infrastructure' };
      const windows = weeks.map((w) => collectWindowOf(periodOf(w)));
      const fromGit = await collectWindowsFromGit([entry], windows, { dir: path.join(tmp, 'clones') });
      assert.ok(fromGit.some(([o]) => o!.activity!.commits.length > 0));
      weeksWithTags += fromGit.filter(([o]) => o!.activity!.repos.some((r) => (r.tags ?? []).length > 0)).length;
      const client = fakeClient(fake);
      for (const [i, window] of windows.entries()) {
        const { outcomes } = await collectOrgs([entry], new Map(), {
          client,
          window: { ...window, collectedAt: new Date('2026-11-01T00:00:00Z') },
          fullRefresh: true,
          orgsPerQuery: 5,
          maxCommitPages: 100,
        });
        assert.equal(outcomes[0]!.status, 'collected', outcomes[0]!.message);
        const git = fromGit[i]![0]!;
        assert.equal(git.status, 'collected', git.message);
        assert.deepEqual(shared(git.activity!), shared(outcomes[0]!.activity!), `${org} ${weeks[i]!.period}`);
      }
    });
  }

  test('some of the weeks compared have tags', () => {
    assert.ok(weeksWithTags > 0);
  });
});
