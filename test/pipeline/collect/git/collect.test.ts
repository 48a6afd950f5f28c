import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  collectOrgsFromGit,
  collectWindowFromGit,
  collectWindowsFromGit,
} from '../../../../src/pipeline/collect/git/collect.js';
import { parsePeriodSlug } from '../../../../src/domain/periods.js';
import { computePeriod } from '../../../../src/pipeline/stages.js';
import type { RawOrgActivity, WatchlistEntry } from '../../../../src/domain/records.js';
import { bareClones, buildRepos, runGit, tempDir } from '../../../helpers/git-scenario.js';
import { authorKey } from '../../../../src/pipeline/collect/authors.js';
import { addressKind } from '../../../../src/pipeline/collect/addresses.js';
import { FROM, PERIOD_END, STEPS, STEPS_THEN, ivy, jon, kim, lee, mo } from './scenario.js';

const key = (p: { name: string; email: string }) => authorKey(p).toLowerCase();

const entry: WatchlistEntry = { login: 'gitco', displayName: 'Gitco', sector: 'data-infrastructure' };
const window = { from: FROM, until: PERIOD_END };

describe('git source', () => {
  let tmp: string;
  let now: string;
  let then: string;
  let sources: Map<string, string>;
  before(async () => {
    tmp = await tempDir('git-source');
    sources = await buildRepos(path.join(tmp, 'src-now'), STEPS);
    await bareClones(sources, (now = path.join(tmp, 'clones-now')), 'gitco');
    await bareClones(
      await buildRepos(path.join(tmp, 'src-then'), STEPS_THEN),
      (then = path.join(tmp, 'clones-then')),
      'gitco',
    );
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  async function activity(dir: string, w = window, e = entry): Promise<RawOrgActivity> {
    const outcome = await collectWindowFromGit(e, w, { dir });
    assert.equal(outcome.status, 'collected', outcome.message);
    return outcome.activity!;
  }

  const commitsOf = (a: RawOrgActivity, author: string) =>
    a.commits.filter((c) => c.author === author).reduce((n, c) => n + c.commits, 0);

  test('a past week read from clones made long after it gives the same record as clones made when it closed', async () => {
    assert.deepEqual(await activity(now), await activity(then));
  });

  test('a branch merged after the period end with commit dates inside it is not counted', async () => {
    const a = await activity(now);
    assert.equal(commitsOf(a, key(mo)), 0);
    assert.ok(!a.commits.some((c) => c.date >= '2026-03-09'));
    const days = a.commits.filter((c) => c.repo === 'app' && (c.date === '2026-03-06' || c.date === '2026-03-07'));
    assert.deepEqual(days, []);
  });

  test('commits are counted by committer day, repository and author, with merge commits marked', async () => {
    const a = await activity(now);
    const merge = a.commits.find((c) => c.date === '2026-03-05' && c.repo === 'app');
    assert.deepEqual({ commits: merge?.commits, merges: merge?.merges }, { commits: 1, merges: 1 });
    const lee = a.commits
      .filter((c) => c.date === '2026-02-27' || c.date === '2026-03-01')
      .filter((c) => c.repo === 'app');
    assert.equal(
      lee.reduce((n, c) => n + c.commits, 0),
      2,
    );
    assert.equal(
      a.commits.filter((c) => c.repo === 'infra').reduce((n, c) => n + c.commits, 0),
      3,
    );
  });

  test('a bot signs with its no-reply address and is kept raw, and a GitHub no-reply address gives its login', async () => {
    const a = await activity(now);
    assert.equal(commitsOf(a, 'dependabot[bot]'), 1);
    assert.equal(commitsOf(a, 'alice'), 1);
    assert.ok(!('dependabot[bot]' in a.lookback!.lastSeen));
  });

  test("the look-back holds each person's latest earlier commit in the organisation, or null", async () => {
    const a = await activity(now);
    assert.deepEqual(a.lookback!.lastSeen, {
      [key(ivy)]: '2025-06-01',
      [key(jon)]: '2025-09-15',
      [key(kim)]: null,
      [key(lee)]: null,
      alice: null,
    });
    assert.deepEqual([a.lookback!.since, a.lookback!.until], ['2025-01-19', '2026-02-01']);
  });

  test("each person's kinds of address are kept, hashed, never the address or its domain", async () => {
    const a = await activity(now);
    const team = addressKind(ivy.email)!;
    assert.deepEqual(a.addresses, {
      [key(ivy)]: [team],
      [key(jon)]: [team],
      [key(kim)]: [team],
      [key(lee)]: [team],
      alice: ['noreply'],
    });
    assert.ok(!JSON.stringify(a.addresses).includes('gitco'));
  });

  test('tags dated inside the window are kept (tagger date, or the commit date of a lightweight tag), later ones not', async () => {
    const app = (await activity(now)).repos.find((r) => r.name === 'app')!;
    assert.deepEqual(app.tags, [
      { date: '2026-02-25', name: 'nightly' },
      { date: '2026-03-03', name: 'v1.0.0' },
    ]);
  });

  test('the files each window changed come from the tips at its bounds, a rename between languages included', async () => {
    const app = (await activity(now)).repos.find((r) => r.name === 'app')!;
    assert.deepEqual(
      app.changes!.map((w) => [w.from, w.until]),
      [
        ['2026-02-09', '2026-02-23'],
        ['2026-02-23', '2026-03-09'],
      ],
    );
    const current = app.changes![1]!.files;
    assert.deepEqual(
      current.find((f) => f.path === 'src/util.ts'),
      { path: 'src/util.ts', status: 'renamed', previousPath: 'src/util.js', additions: 0, deletions: 0 },
    );
    assert.deepEqual(
      current.find((f) => f.path === 'src/feature.ts'),
      {
        path: 'src/feature.ts',
        status: 'added',
        additions: 10,
        deletions: 0,
      },
    );
    assert.ok(!current.some((f) => f.path === 'src/late.ts'));
    assert.deepEqual(
      app.changes![0]!.files.map((f) => [f.path, f.status, f.additions]),
      [
        ['README.md', 'added', 4],
        ['src/api.js', 'added', 8],
        ['src/index.js', 'modified', 4],
      ],
    );
  });

  test('a repository whose branch did not exist at a window start has no changes for that window', async () => {
    const infra = (await activity(now)).repos.find((r) => r.name === 'infra')!;
    assert.deepEqual(
      infra.changes!.map((w) => w.from),
      ['2026-02-23'],
    );
  });

  test('a repository is dated by its first commit, and one first committed in the last 30 days is new', async () => {
    const a = await activity(now);
    assert.equal(a.repos.find((r) => r.name === 'infra')!.createdAt, '2026-02-20T10:00:00Z');
    const week = computePeriod([{ entry, raw: a }], parsePeriodSlug('2026-w10')).startups[0]!;
    assert.equal(week.startup.newRepos, 1);
    assert.equal(week.startup.commitVelocity14d, 11);
  });

  test('markers and languages come from the tree at the tip, counted in files', async () => {
    const a = await activity(now);
    const app = a.repos.find((r) => r.name === 'app')!;
    const infra = a.repos.find((r) => r.name === 'infra')!;
    assert.deepEqual(app.markers, ['package.json']);
    assert.deepEqual(app.languages, { TypeScript: 3, JavaScript: 2 });
    assert.equal(app.language, 'TypeScript');
    assert.deepEqual(infra.markers, ['main.tf']);
    assert.deepEqual(infra.languages, { HCL: 2, Dockerfile: 1 });
  });

  test('the record says git built it, names what git cannot see, and records the tip it read from', async () => {
    const a = await activity(now);
    assert.equal(a.source, 'git');
    for (const word of ['releases', 'deployments', 'topics', 'profile', 'without a clone']) {
      assert.ok(
        a.unseen!.some((u) => u.includes(word)),
        word,
      );
    }
    const app = a.repos.find((r) => r.name === 'app')!;
    assert.equal(app.defaultBranch, 'main');
    assert.equal(app.tip?.source, 'first-parent');
    const merged = await runGit(sources.get('app')!, [
      'log',
      '-1',
      '--format=%H',
      '--merges',
      '--before=2026-03-06',
      'main',
    ]);
    assert.equal(app.tip?.oid, merged.trim());
    assert.equal(a.profile.location, null);
  });

  test('a working clone is read on its remote default branch, whatever branch is checked out', async () => {
    const work = path.join(tmp, 'clones-work');
    await fs.mkdir(path.join(work, 'gitco'), { recursive: true });
    for (const name of ['app', 'infra']) {
      await runGit(tmp, ['clone', '-q', path.join(now, 'gitco', `${name}.git`), path.join(work, 'gitco', name)]);
    }
    await runGit(path.join(work, 'gitco', 'app'), ['checkout', '-q', '-b', 'elsewhere', 'origin/late']);
    assert.deepEqual(await activity(work), await activity(now));
  });

  test('a listed repository without a clone is cloned without file contents, and reads the same', async () => {
    const empty = path.join(tmp, 'clones-empty');
    await fs.mkdir(empty);
    const listed: WatchlistEntry = { ...entry, repository: 'gitco/app', repositories: ['gitco/infra'] };
    const outcome = await collectWindowFromGit(listed, window, { dir: empty, clone: true, remote: `file://${now}` });
    assert.equal(outcome.status, 'collected', outcome.message);
    const config = await runGit(path.join(empty, 'gitco', 'app.git'), ['config', 'remote.origin.partialclonefilter']);
    assert.equal(config.trim(), 'blob:none');
    assert.deepEqual(outcome.activity, await activity(now));
  });

  test('a clone without file contents whose remote is gone keeps its commits and says the changed files are missing', async () => {
    const remote = path.join(tmp, 'remote-gone');
    await fs.cp(now, remote, { recursive: true });
    const dir = path.join(tmp, 'clones-offline');
    await fs.mkdir(dir);
    const listed: WatchlistEntry = { ...entry, repository: 'gitco/app' };
    const made = await collectWindowFromGit(
      listed,
      { ...window, until: new Date('2026-01-01T00:00:00Z') },
      {
        dir,
        clone: true,
        remote: `file://${remote}`,
      },
    );
    assert.equal(made.status, 'collected', made.message);
    await fs.rm(remote, { recursive: true, force: true });
    const outcome = await collectWindowFromGit(listed, window, { dir });
    assert.equal(outcome.status, 'partial');
    assert.match(outcome.message!, /app: the files each window changed could not be read/);
    const app = outcome.activity!.repos.find((r) => r.name === 'app')!;
    assert.equal(app.changes, undefined);
    assert.deepEqual(
      outcome.activity!.commits,
      (await activity(now)).commits.filter((c) => c.repo === 'app'),
    );
  });

  test('a listed repository without a clone is named in a partial outcome when cloning is not allowed', async () => {
    const listed: WatchlistEntry = { ...entry, repositories: ['gitco/missing'] };
    const outcome = await collectWindowFromGit(listed, window, { dir: now });
    assert.equal(outcome.status, 'partial');
    assert.match(outcome.message!, /missing: listed, but no clone/);
  });

  test('an organisation with no clone is not found, with what to do', async () => {
    const { outcomes } = await collectOrgsFromGit(
      [{ login: 'nobody', displayName: 'Nobody', sector: 'data-infrastructure' }, entry],
      window,
      { dir: now },
    );
    assert.equal(outcomes[0]!.status, 'not_found');
    assert.match(outcomes[0]!.message!, /clone them into/);
    assert.equal(outcomes[1]!.status, 'collected');
  });

  test('a range of weeks read from clones opened once gives each week as read alone', async () => {
    const later = { from: '2026-02-16', until: new Date('2026-03-23T00:00:00Z') };
    const [first, second] = await collectWindowsFromGit([entry], [window, later], { dir: now });
    assert.deepEqual(first![0]!.activity, await activity(now));
    assert.deepEqual(second![0]!.activity, await activity(now, later));
    assert.ok(
      second![0]!.activity!.commits.some((c) => c.date === '2026-03-06'),
      'merged on 03-20, seen then',
    );
  });
});
