import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { collectOrgs } from '../../../../src/pipeline/collect/collect.js';
import { collectWindowFromGit } from '../../../../src/pipeline/collect/git/collect.js';
import type { RawOrgActivity, WatchlistEntry } from '../../../../src/domain/records.js';
import { FakeGitHub, fakeClient } from '../../../helpers/fake-github.js';
import { bareClones, buildRepos, fakeOrgOf, tempDir } from '../../../helpers/git-scenario.js';
import { FROM, PERIOD_END, ROOT_FILES, STEPS } from './scenario.js';

/**
 * The same activity served by the tests' fake GitHub and held in git clones: the two collectors must give the same
 * record for everything both can see (commits, merges, the look-back, the kinds of the authors' addresses, tags, the files each window changed, the files
 * at the root, the default branch, the repositories and their first dates). Authors are unlinked on the API side,
 * as git knows them: by e-mail, or by a GitHub no-reply address.
 */
const entry: WatchlistEntry = { login: 'gitco', displayName: 'Gitco', sector: 'data-infrastructure' };
const window = { from: FROM, until: PERIOD_END };

/** The fields of a record both sources see. */
function shared(a: RawOrgActivity) {
  return {
    commits: a.commits,
    lookback: a.lookback,
    addresses: a.addresses,
    version: a.version,
    repos: a.repos.map((r) => ({
      name: r.name,
      fork: r.fork,
      createdAt: r.createdAt,
      tags: r.tags,
      markers: r.markers,
      defaultBranch: r.defaultBranch,
      changes: r.changes,
    })),
  };
}

describe('git source against the API collector', () => {
  let tmp: string;
  let fake: FakeGitHub;
  before(async () => {
    tmp = await tempDir('git-equality');
    await bareClones(await buildRepos(path.join(tmp, 'src'), STEPS), path.join(tmp, 'clones'), 'gitco');
    fake = await FakeGitHub.start({ orgs: [fakeOrgOf('gitco', STEPS, ROOT_FILES)] });
  });
  after(async () => {
    await fake.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  async function fromApi(): Promise<RawOrgActivity> {
    const client = fakeClient(fake);
    const { outcomes } = await collectOrgs([entry], new Map(), {
      client,
      window: { ...window, collectedAt: new Date('2026-04-01T06:00:00Z') },
      fullRefresh: false,
      orgsPerQuery: 5,
      maxCommitPages: 30,
    });
    assert.equal(outcomes[0]!.status, 'collected', outcomes[0]!.message);
    return outcomes[0]!.activity!;
  }

  async function fromGit(): Promise<RawOrgActivity> {
    const outcome = await collectWindowFromGit(entry, window, { dir: path.join(tmp, 'clones') });
    assert.equal(outcome.status, 'collected', outcome.message);
    return outcome.activity!;
  }

  test('the same activity read from the API and from git gives the same record for the fields both see', async () => {
    assert.deepEqual(shared(await fromGit()), shared(await fromApi()));
  });

  test('only the git record says which source built it and what it could not see', async () => {
    const [api, git] = [await fromApi(), await fromGit()];
    assert.equal(api.source, undefined);
    assert.equal(api.unseen, undefined);
    assert.equal(git.source, 'git');
    assert.ok(git.unseen!.length > 0);
  });
});
