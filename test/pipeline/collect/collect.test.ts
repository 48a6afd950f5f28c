import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { collectOrgs, type CachedOrg, type CollectOptions } from '../../../src/pipeline/collect/collect.js';
import { addDays } from '../../../src/domain/periods.js';
import { UNATTRIBUTED_AUTHOR } from '../../../src/pipeline/collect/authors.js';
import { GitHubAuthError, type GitHubClient } from '../../../src/github/client.js';
import { computePeriod } from '../../../src/pipeline/stages.js';
import { activityDigest } from '../../../src/store/pipeline.js';
import { FakeGitHub, type FakeOrg, fakeClient } from '../../helpers/fake-github.js';
import {
  acmeEntry,
  acmeOrg,
  COLLECT_FROM,
  commits,
  launchEntry,
  launchOrg,
  NOW,
  PERIOD,
  quietEntry,
  quietOrg,
} from '../fixtures.js';

describe('collect stage against a fake GitHub', () => {
  let fake: FakeGitHub;
  let client: GitHubClient;
  const options = (overrides: Partial<CollectOptions> = {}): CollectOptions => ({
    client,
    window: { from: COLLECT_FROM, until: NOW },
    fullRefresh: false,
    orgsPerQuery: 5,
    maxCommitPages: 30,
    ...overrides,
  });

  before(async () => {
    fake = await FakeGitHub.start({ orgs: [acmeOrg(), quietOrg(), launchOrg()] });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.resetCounts();
    fake.clearFaults();
    client = fakeClient(fake);
  });

  test('metrics computed from collected activity equal the hand-computed values of the fixture', async () => {
    const { outcomes } = await collectOrgs([acmeEntry], new Map(), options());
    assert.equal(outcomes[0]!.status, 'collected');
    const ranked = computePeriod([{ entry: acmeEntry, raw: outcomes[0]!.activity! }], PERIOD);
    assert.deepEqual(ranked.startups[0]!.startup, {
      name: 'Acme Labs',
      description: 'Developer tools',
      stage: 'Pre-seed',
      geography: 'Germany',
      commitVelocity14d: 23,
      commitVelocityChange: '+65%',
      contributors: 3,
      contributorGrowth: '+33%',
      newRepos: 1,
      signalType: 'Framework migration',
      githubUrl: 'https://github.com/acme-labs',
      websiteUrl: 'https://acme.example/',
      linkedinUrl: 'https://www.linkedin.com/search/results/companies/?keywords=Acme%20Labs',
    });
    assert.deepEqual(ranked.startups[0]!.metrics.newLanguages, ['Rust']);
    assert.equal(ranked.startups[0]!.metrics.commitsPrior, 10);
    // carol and bob are new (bob's first commit came in the prior window), each with work on one day only, so no
    // hiring evidence; 10 prior commits are too few to compare the language mix: no type has evidence, the type is a
    // placeholder.
    assert.equal(ranked.startups[0]!.signalEvidence.strength, 'none');
    assert.equal(ranked.startups[0]!.signalEvidence.scores!['Engineering hiring burst'], 0);
    assert.equal(ranked.startups[0]!.metrics.evidence!.newContributors, 2);
    assert.equal(ranked.startups[0]!.metrics.evidence!.newRegularContributors, 0);
  });

  test('evidence comes with the commits: events inside the window, languages, topics and root markers', async () => {
    const { outcomes } = await collectOrgs([launchEntry], new Map(), options());
    const app = outcomes[0]!.activity!.repos.find((r) => r.name === 'app')!;
    assert.equal(outcomes[0]!.activity!.version, 3);
    assert.deepEqual(app, {
      name: 'app',
      defaultBranch: 'main',
      fork: false,
      createdAt: '2024-02-01T00:00:00Z',
      language: 'TypeScript',
      languages: { TypeScript: 9000, Dockerfile: 1000 },
      topics: ['saas'],
      markers: ['package.json'],
      releases: [
        { date: '2026-01-20', tag: 'v1.2.0' },
        { date: '2026-02-12', tag: 'v1.3.0' },
        { date: '2026-02-25', tag: 'v1.4.0' },
        { date: '2026-03-02', tag: 'v1.5.0' },
        { date: '2026-03-05', tag: 'v1.6.0' },
      ],
      tags: [
        { date: '2026-01-20', name: 'v1.2.0' },
        { date: '2026-02-12', name: 'v1.3.0' },
        { date: '2026-02-25', name: 'v1.4.0' },
        { date: '2026-03-01', name: 'nightly-0301' },
        { date: '2026-03-02', name: 'v1.5.0' },
        { date: '2026-03-05', name: 'v1.6.0' },
      ],
      deployments: [
        { date: '2026-02-11', environment: 'production' },
        { date: '2026-02-26', environment: 'production' },
        { date: '2026-03-05', environment: 'production' },
      ],
      // Events are read from the deploy baseline's start, twelve weeks before the current window; every list was read
      // to its end, so the repository's first release is known.
      eventsSince: '2025-12-01',
      firstEventDay: '2026-01-20',
      // The files of the current window, from the tips at its bounds (the branch's pushes begin inside the prior
      // window, so its start has no tip and the prior window is left out).
      changes: [{ from: '2026-02-23', until: '2026-03-09', files: [], truncated: false }],
    });
    // The organisation's query, and one look-back query for its four authors in its three repositories.
    assert.equal(fake.counts.graphql, 2);
  });

  test('the evidence of the launch fixture equals the hand-computed values and names a strong deploy spike', async () => {
    const { outcomes } = await collectOrgs([launchEntry], new Map(), options());
    const s = computePeriod([{ entry: launchEntry, raw: outcomes[0]!.activity! }], PERIOD).startups[0]!;
    assert.deepEqual(s.metrics.evidence, {
      deployDaysCurrent: 5,
      deployDaysPrior: 2,
      releasesCurrent: 3,
      tagsCurrent: 1,
      deploymentsCurrent: 2,
      deployIncompleteRepos: [],
      deployDaysBaseline: 0.5,
      deployBaselineWindows: 6,
      deployNewRepos: [],
      prereleasesCurrent: 0,
      newContributors: 1,
      departedContributors: 0,
      newInfraRepos: ['helm-charts'],
      infraCommitsCurrent: 13,
      infraCommitsPrior: 3,
      languageShiftPct: 20,
      ecosystemShiftPct: 0,
      risingLanguage: 'Go Template',
      risingEcosystem: null,
      newRegularContributors: 0,
      returningContributors: 0,
      outsideContributors: 0,
      lookbackDays: 365,
      joinDays: 56,
      automationCommits: 0,
      mergeCommits: 0,
      people: [
        {
          login: 'cy',
          kind: 'new',
          regular: false,
          firstCommit: '2026-03-04',
          commits: 4,
          activeDays: 1,
          lastSeenBefore: null,
          address: null,
        },
      ],
      deployEvents: [
        { repo: 'app', kind: 'deployment', name: 'production', date: '2026-03-05' },
        { repo: 'app', kind: 'release', name: 'v1.6.0', date: '2026-03-05' },
        { repo: 'app', kind: 'release', name: 'v1.5.0', date: '2026-03-02' },
        { repo: 'app', kind: 'tag', name: 'nightly-0301', date: '2026-03-01' },
        { repo: 'app', kind: 'deployment', name: 'production', date: '2026-02-26' },
        { repo: 'app', kind: 'release', name: 'v1.4.0', date: '2026-02-25' },
      ],
      // The infrastructure commits above (13 and 3) are infra's and helm-charts' rows here.
      activeRepos: [
        { repo: 'app', commits: 26, commitsPrior: 20 },
        { repo: 'infra', commits: 8, commitsPrior: 3 },
        { repo: 'helm-charts', commits: 5, commitsPrior: 0 },
      ],
      newRepoNames: ['helm-charts'],
    });
    assert.deepEqual(s.signalEvidence.scores, {
      'Engineering hiring burst': 0,
      'Infrastructure buildout': 0.65,
      'Framework migration': 0.33,
      'Deploy frequency spike': 1.25,
    });
    assert.equal(s.startup.signalType, 'Deploy frequency spike');
    assert.equal(s.signalEvidence.strength, 'strong');
  });

  test('a list of events longer than one page is read back to the window start, so a busy repository keeps its deploy days', async () => {
    const busy: FakeOrg = {
      login: 'release-co',
      repos: [
        {
          name: 'cli',
          language: 'Go',
          createdAt: '2022-01-01T00:00:00Z',
          commits: commits(25, '2026-03-03', { login: 'a' }),
          // 25 releases, one a day from 2026-02-08 to 2026-03-04: the page of the newest 20 reaches back to 02-13.
          releases: Array.from({ length: 25 }, (_, i) => ({
            tagName: `v0.${i}.0`,
            createdAt: `${addDays('2026-02-08', i)}T10:00:00Z`,
          })),
        },
      ],
    };
    fake.setOrg(busy);
    const entry = { login: 'release-co', displayName: 'Release Co', sector: 'robotics' as const };
    const { outcomes } = await collectOrgs([entry], new Map(), options());
    const cli = outcomes[0]!.activity!.repos[0]!;
    assert.equal(cli.releases!.length, 25);
    assert.equal(cli.eventsFrom, undefined);
    const s = computePeriod([{ entry, raw: outcomes[0]!.activity! }], PERIOD).startups[0]!;
    assert.deepEqual(s.metrics.evidence!.deployIncompleteRepos, []);
    // One release a day from 02-23 to 03-04 in the current window.
    assert.equal(s.metrics.evidence!.deployDaysCurrent, 10);
  });

  test('three organisations cost one probe each, one GraphQL query, one look-back query, and per active repository its list of pushes and a comparison per window it spans', async () => {
    const { outcomes, meter } = await collectOrgs(
      [acmeEntry, quietEntry(), { ...quietEntry('gone-org') }],
      new Map(),
      options(),
    );
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['collected', 'collected', 'not_found'],
    );
    // REST: 3 probes; acme's api (pushes since 2026-01-15: both windows) 1 + 2, engine (pushes from 03-03: no tip at
    // either window's start) 1; quiet's core (pushes from 02-12: the current window only) 1 + 1.
    assert.equal(fake.counts.rest, 9);
    assert.equal(fake.counts.graphql, 2);
    assert.equal(meter.requests, 11);
  });

  test('forks are never read and commits before the collect window are not collected', async () => {
    const { outcomes } = await collectOrgs([acmeEntry], new Map(), options());
    const activity = outcomes[0]!.activity!;
    assert.deepEqual(
      activity.repos.map((r) => r.name),
      ['api', 'engine'],
    );
    assert.ok(activity.commits.every((c) => c.date >= COLLECT_FROM));
    assert.equal(
      activity.commits.filter((c) => c.author === 'alice').reduce((n, c) => n + c.commits, 0),
      4 + 6 + 6 + 3 + 2,
    );
  });

  test('a bot committing through its no-reply address is recorded under its bot login', async () => {
    const { outcomes } = await collectOrgs([acmeEntry], new Map(), options());
    const bot = outcomes[0]!.activity!.commits.filter((c) => c.author === 'dependabot[bot]');
    assert.deepEqual(bot, [{ date: '2026-03-02', repo: 'api', author: 'dependabot[bot]', commits: 4 }]);
  });

  test('an author without a GitHub account is keyed by a hash of the e-mail, never the address', async () => {
    const { outcomes } = await collectOrgs([acmeEntry], new Map(), options());
    const engine = outcomes[0]!.activity!.commits.filter((c) => c.repo === 'engine');
    assert.equal(engine.length, 1);
    assert.match(engine[0]!.author, /^email:[0-9a-f]{16}$/);
    assert.ok(!JSON.stringify(outcomes[0]!.activity).includes('carol@acme.example'));
  });

  test("the look-back finds a linked account's earlier commits under another address of theirs", async () => {
    const vet = { login: 'vet', name: 'Vet' };
    const org: FakeOrg = {
      login: 'vet-co',
      repos: [
        {
          name: 'core',
          createdAt: '2024-01-01T00:00:00Z',
          language: 'Go',
          commits: [
            ...commits(2, '2025-10-01', { ...vet, email: 'vet@old-company.example' }),
            ...commits(3, '2026-03-02', { ...vet, email: 'vet@vet-co.example' }),
          ],
        },
      ],
    };
    const own = await FakeGitHub.start({ orgs: [org] });
    try {
      const entry = { login: 'vet-co', displayName: 'Vet Co', sector: 'robotics' as const };
      const { outcomes } = await collectOrgs([entry], new Map(), { ...options(), client: fakeClient(own) });
      assert.equal(outcomes[0]!.activity!.lookback!.lastSeen['vet'], '2025-10-01');
    } finally {
      await own.close();
    }
  });

  test('an organisation answering 304 to its stored ETag reuses the stored activity without a GraphQL query', async () => {
    const first = await collectOrgs([acmeEntry], new Map(), options());
    const o = first.outcomes[0]!;
    const cache = new Map<string, CachedOrg>([
      [
        'acme-labs',
        { etag: o.probeEtag!, digest: activityDigest(o.activity!), coversFrom: COLLECT_FROM, coversUntil: NOW },
      ],
    ]);
    fake.resetCounts();
    const second = await collectOrgs([acmeEntry], cache, options());
    assert.equal(second.outcomes[0]!.status, 'unchanged');
    assert.equal(second.outcomes[0]!.digest, activityDigest(o.activity!));
    assert.equal(fake.counts.total, 1);
    assert.equal(fake.counts.notModified, 1);
    assert.equal(second.meter.notModified, 1);
  });

  test('a push changes the ETag and the organisation is read again', async () => {
    const first = await collectOrgs([quietEntry()], new Map(), options());
    const o = first.outcomes[0]!;
    const cache = new Map<string, CachedOrg>([
      [
        'quiet-co',
        { etag: o.probeEtag!, digest: activityDigest(o.activity!), coversFrom: COLLECT_FROM, coversUntil: NOW },
      ],
    ]);
    fake.pushCommit('quiet-co', 'core', { committedDate: '2026-03-05T10:00:00Z', login: 'eli' });
    try {
      const second = await collectOrgs([quietEntry()], cache, options());
      assert.equal(second.outcomes[0]!.status, 'collected');
      assert.equal(fake.counts.graphql, 2);
    } finally {
      fake.setOrg(quietOrg());
    }
  });

  test('a stored ETag is not used when the stored activity starts after the window needed', async () => {
    const first = await collectOrgs([quietEntry()], new Map(), options());
    const o = first.outcomes[0]!;
    const cache = new Map<string, CachedOrg>([
      [
        'quiet-co',
        { etag: o.probeEtag!, digest: activityDigest(o.activity!), coversFrom: '2026-02-20', coversUntil: NOW },
      ],
    ]);
    fake.resetCounts();
    const second = await collectOrgs([quietEntry()], cache, options());
    assert.equal(second.outcomes[0]!.status, 'collected');
    assert.equal(fake.counts.notModified, 0);
  });

  test('an organisation with 150 repositories and a repository with 250 commits is read page by page', async () => {
    const many: FakeOrg = {
      login: 'many-repos',
      repos: [
        {
          name: 'busy',
          language: 'Go',
          createdAt: '2021-01-01T00:00:00Z',
          commits: [
            ...commits(50, '2026-03-03', { login: 'a' }),
            ...commits(50, '2026-03-04', { login: 'b' }),
            ...commits(50, '2026-03-05', { login: 'c' }),
            ...commits(50, '2026-02-12', { login: 'a' }),
            ...commits(50, '2026-02-13', { login: 'd' }),
          ],
        },
        ...Array.from({ length: 149 }, (_, i) => ({
          name: `lib-${String(i).padStart(3, '0')}`,
          language: 'Go',
          createdAt: '2020-01-01T00:00:00Z',
          pushedAt: '2021-01-01T00:00:00Z',
          commits: [],
        })),
      ],
    };
    fake.setOrg(many);
    const entry = { login: 'many-repos', displayName: 'Many Repos', sector: 'robotics' as const };
    const { outcomes } = await collectOrgs([entry], new Map(), options());
    const activity = outcomes[0]!.activity!;
    assert.equal(activity.repos.length, 150);
    assert.equal(
      activity.commits.reduce((n, c) => n + c.commits, 0),
      250,
    );
    // Repositories read without history carry no evidence either.
    assert.equal(activity.repos.find((r) => r.name === 'lib-148')!.releases, undefined);
    const ops = fake.log.filter((r) => r.kind === 'graphql').map((r) => r.operation);
    // First page: 30 repositories with history; then 120 more, all pushed before the window, in pages of 100
    // without history; the busy repository's 250 commits take 3 pages.
    assert.deepEqual(ops.sort(), ['CollectOrgs', 'MoreHistory', 'MoreHistory', 'MoreRepos', 'MoreRepos']);
  });

  test('a repository beyond the page budget is completed from daily statistics after their 202 answers', async () => {
    const busy: FakeOrg = {
      login: 'stats-co',
      repos: [
        {
          name: 'mono',
          language: 'Python',
          createdAt: '2020-01-01T00:00:00Z',
          statsComputing: 2,
          commits: [
            ...commits(60, '2026-03-04', { login: 'a' }),
            ...commits(60, '2026-03-03', { login: 'b' }),
            ...commits(30, '2026-02-20', { login: 'c' }),
          ],
        },
      ],
    };
    fake.setOrg(busy);
    const entry = { login: 'stats-co', displayName: 'Stats Co', sector: 'robotics' as const };
    const { outcomes } = await collectOrgs([entry], new Map(), options({ maxCommitPages: 1 }));
    const o = outcomes[0]!;
    assert.equal(o.status, 'partial');
    assert.match(o.message!, /mono: more than 100 commits/);
    assert.equal(
      fake.countWhere((r) => r.path.endsWith('/stats/commit_activity') && r.status === 202),
      2,
    );
    assert.equal(
      o.activity!.commits.reduce((n, c) => n + c.commits, 0),
      150,
    );
  });

  test('days the commit pages did not reach are counted from statistics under an unattributed author', async () => {
    const busy: FakeOrg = {
      login: 'deep-co',
      repos: [
        {
          name: 'mono',
          language: 'Python',
          createdAt: '2020-01-01T00:00:00Z',
          commits: [
            ...commits(60, '2026-03-04', { login: 'a' }),
            ...commits(60, '2026-03-03', { login: 'b' }),
            ...commits(30, '2026-02-20', { login: 'c' }),
          ],
        },
      ],
    };
    fake.setOrg(busy);
    const entry = { login: 'deep-co', displayName: 'Deep Co', sector: 'robotics' as const };
    const { outcomes } = await collectOrgs([entry], new Map(), options({ maxCommitPages: 1 }));
    const activity = outcomes[0]!.activity!;
    // Page 1 (newest first) holds the 60 of 03-04 and 40 of 03-03; 03-03 and older come from statistics, whole.
    assert.deepEqual(
      activity.commits.map((c) => [c.date, c.author, c.commits]),
      [
        ['2026-02-20', UNATTRIBUTED_AUTHOR, 30],
        ['2026-03-03', UNATTRIBUTED_AUTHOR, 60],
        ['2026-03-04', 'a', 60],
      ],
    );
    assert.equal(outcomes[0]!.status, 'partial');
  });

  test('a repository too large for the statistics endpoint keeps the pages read and says so', async () => {
    const huge: FakeOrg = {
      login: 'huge-co',
      repos: [
        {
          name: 'giant',
          language: 'C',
          createdAt: '2010-01-01T00:00:00Z',
          statsTooLarge: true,
          commits: commits(150, '2026-03-04', { login: 'a' }),
        },
      ],
    };
    fake.setOrg(huge);
    const entry = { login: 'huge-co', displayName: 'Huge Co', sector: 'robotics' as const };
    const { outcomes } = await collectOrgs([entry], new Map(), options({ maxCommitPages: 1 }));
    assert.equal(outcomes[0]!.status, 'partial');
    assert.match(outcomes[0]!.message!, /giant: .*too large for GitHub's statistics endpoint \(422/);
    assert.equal(
      outcomes[0]!.activity!.commits.reduce((n, c) => n + c.commits, 0),
      100,
    );
  });

  test('an organisation GraphQL cannot resolve is recorded as not found', async () => {
    fake.injectFault({
      match: (r) => r.kind === 'rest' && r.path.startsWith('/orgs/vanishing/'),
      status: 200,
      body: [],
    });
    const { outcomes } = await collectOrgs(
      [{ login: 'vanishing', displayName: 'Vanishing', sector: 'gaming' }, quietEntry()],
      new Map(),
      options(),
    );
    assert.equal(outcomes[0]!.status, 'not_found');
    assert.match(outcomes[0]!.message!, /NOT_FOUND/);
    assert.equal(outcomes[1]!.status, 'collected');
  });

  test('a partial GraphQL answer (null nodes, errors beside data) keeps what it gave and marks the organisation partial', async () => {
    const history = {
      pageInfo: { hasNextPage: false, endCursor: null },
      nodes: [
        null,
        {
          oid: 'a1',
          committedDate: '2026-03-02T10:00:00Z',
          author: { name: 'Ada', email: 'ada@example.org', user: { login: 'ada' } },
        },
      ],
    };
    fake.injectFault({
      match: (r) => r.kind === 'graphql',
      status: 200,
      body: {
        data: {
          o0: {
            login: 'acme-labs',
            name: 'Acme Labs',
            description: null,
            location: null,
            websiteUrl: null,
            repositories: {
              pageInfo: { hasNextPage: false, endCursor: null },
              nodes: [
                null,
                {
                  name: 'engine',
                  isFork: false,
                  createdAt: '2025-01-01T00:00:00Z',
                  pushedAt: '2026-03-02T10:00:00Z',
                  primaryLanguage: { name: 'Rust' },
                  defaultBranchRef: { target: { history } },
                  releases: { pageInfo: { hasNextPage: false }, nodes: [null] },
                },
              ],
            },
          },
        },
        errors: [
          { type: 'SERVICE_UNAVAILABLE', path: ['o0', 'repositories', 'nodes', 0], message: 'Something went wrong' },
          {
            type: 'SERVICE_UNAVAILABLE',
            path: ['o0', 'repositories', 'nodes', 1, 'defaultBranchRef', 'target', 'history', 'nodes', 0],
            message: 'Timeout',
          },
        ],
      },
    });
    const { outcomes } = await collectOrgs([acmeEntry, quietEntry()], new Map(), options());
    const acme = outcomes[0]!;
    assert.equal(acme.status, 'partial');
    assert.match(acme.message!, /1 repository was missing from GitHub's answer/);
    assert.match(acme.message!, /engine: 1 commits were missing/);
    assert.match(acme.message!, /repositories\.nodes\.0: Something went wrong/);
    assert.deepEqual(
      acme.activity!.repos.map((r) => r.name),
      ['engine'],
    );
    assert.deepEqual(
      acme.activity!.commits.map((c) => [c.date, c.repo, c.commits]),
      [['2026-03-02', 'engine', 1]],
    );
  });

  test('a GraphQL query failing with 502 after retries fails only the organisations of that query', async () => {
    fake.injectFault({
      match: (r) => r.kind === 'graphql' && r.body.includes('"quiet-co"'),
      status: 502,
      body: { message: 'Bad Gateway' },
      times: 10,
    });
    const { outcomes } = await collectOrgs([acmeEntry, quietEntry()], new Map(), options({ orgsPerQuery: 1 }));
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['collected', 'failed'],
    );
    assert.match(outcomes[1]!.message!, /GitHub answered 502 Bad Gateway after retries/);
    assert.equal(
      fake.countWhere((r) => r.kind === 'graphql' && r.status === 502),
      4,
    );
  });

  test('a rejected token stops the batch with an authentication error', async () => {
    const bad = fakeClient(fake, { token: 'wrong', concurrency: 2 });
    await assert.rejects(
      collectOrgs([acmeEntry, quietEntry()], new Map(), options({ client: bad })),
      (err: unknown) => err instanceof GitHubAuthError && /401 Bad credentials/.test((err as Error).message),
    );
    assert.equal(fake.counts.graphql, 0);
  });
});
