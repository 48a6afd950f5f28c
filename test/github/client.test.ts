import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  GitHubAuthError,
  type GitHubClient,
  GitHubNotFoundError,
  GitHubUnavailableError,
} from '../../src/github/client.js';
import { FakeGitHub, SECONDARY_LIMIT_MESSAGE, type FakeOrg, fakeClient } from '../helpers/fake-github.js';
import { acmeOrg, commits, quietOrg } from '../pipeline/fixtures.js';

const PROBE = 'GET /orgs/{org}/repos';
const probeParams = { org: 'quiet-co', type: 'public', sort: 'pushed', direction: 'desc', per_page: 1 };

describe('GitHub client', () => {
  let fake: FakeGitHub;
  let client: GitHubClient;
  const waits: { kind: string; seconds: number }[] = [];

  before(async () => {
    const tagged: FakeOrg[] = Array.from({ length: 3 }, (_, o) => ({
      login: `topic-org-${o}`,
      repos: Array.from({ length: 60 }, (_, r) => ({
        name: `repo-${r}`,
        createdAt: '2024-01-01T00:00:00Z',
        topics: ['fhir'],
        commits: commits(1, '2026-03-01', { login: 'x' }),
      })),
    }));
    fake = await FakeGitHub.start({ orgs: [acmeOrg(), quietOrg(), ...tagged] });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.resetCounts();
    fake.clearFaults();
    waits.length = 0;
    client = fakeClient(fake, { onWait: (w) => waits.push({ kind: w.kind, seconds: w.seconds }) });
  });

  test('a conditional GET with the current ETag is answered 304 and counted as not modified', async () => {
    const first = await client.getConditional(PROBE, probeParams, undefined);
    assert.equal(first.status, 200);
    assert.match(first.etag!, /^W\/"[0-9a-f]{40}"$/);
    const second = await client.getConditional(PROBE, probeParams, first.etag);
    assert.equal(second.status, 304);
    assert.equal(client.total.requests, 2);
    assert.equal(client.total.notModified, 1);
  });

  test('a 304 does not spend the REST quota', async () => {
    const first = await client.getConditional(PROBE, probeParams, undefined);
    const before = client.remaining().core!;
    await client.getConditional(PROBE, probeParams, first.etag);
    assert.equal(client.remaining().core, before);
  });

  test('a 403 secondary rate limit is retried after its Retry-After', async () => {
    fake.injectFault({
      match: (r) => r.kind === 'rest',
      status: 403,
      headers: { 'retry-after': '1' },
      body: { message: SECONDARY_LIMIT_MESSAGE },
    });
    const res = await client.getConditional(PROBE, probeParams, undefined);
    assert.equal(res.status, 200);
    assert.deepEqual(waits, [{ kind: 'secondary-limit', seconds: 1 }]);
    assert.deepEqual([...fake.counts.byStatus].sort(), [
      [200, 1],
      [403, 1],
    ]);
  });

  test('a 429 secondary rate limit is retried after its Retry-After', async () => {
    fake.injectFault({
      match: (r) => r.kind === 'graphql',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { message: SECONDARY_LIMIT_MESSAGE },
    });
    const { data } = await client.graphql<{ o0: { login: string } }>(
      'query Q($l: String!) { o0: organization(login: $l) { login } }',
      { l: 'acme-labs' },
    );
    assert.equal(data.o0.login, 'acme-labs');
    assert.deepEqual(waits, [{ kind: 'secondary-limit', seconds: 1 }]);
  });

  test('an exhausted primary rate limit waits for x-ratelimit-reset and then succeeds', async () => {
    fake.setRemaining('core', 0, 1);
    const res = await client.getConditional(PROBE, probeParams, undefined);
    assert.equal(res.status, 200);
    assert.equal(waits.length, 1);
    assert.equal(waits[0]!.kind, 'rate-limit');
    assert.equal(fake.counts.byStatus.get(403), 1);
  });

  test('5xx answers are retried with backoff until one succeeds', async () => {
    fake.injectFault({ match: (r) => r.kind === 'rest', status: 500, times: 2 });
    const res = await client.getConditional(PROBE, probeParams, undefined);
    assert.equal(res.status, 200);
    assert.equal(fake.counts.total, 3);
  });

  test('GitHub staying down gives an unavailable error naming the status', async () => {
    fake.injectFault({
      match: (r) => r.kind === 'rest',
      status: 503,
      body: { message: 'Service Unavailable' },
      times: 10,
    });
    await assert.rejects(
      client.getConditional(PROBE, probeParams, undefined),
      (err: unknown) =>
        err instanceof GitHubUnavailableError &&
        /GitHub answered 503 Service Unavailable after retries/.test(err.message),
    );
    assert.equal(fake.counts.total, 4);
  });

  test('a 404 gives a not-found error', async () => {
    await assert.rejects(
      client.getConditional(PROBE, { ...probeParams, org: 'nobody-here' }, undefined),
      GitHubNotFoundError,
    );
  });

  test('a rejected token gives an authentication error and no further request is sent', async () => {
    const bad = fakeClient(fake, { token: 'nope', concurrency: 2 });
    await assert.rejects(bad.getConditional(PROBE, probeParams, undefined), (err: unknown) => {
      assert.ok(err instanceof GitHubAuthError);
      assert.match((err as Error).message, /^GitHub rejected the token \(401 Bad credentials\): check GITHUB_TOKEN/);
      return true;
    });
    await assert.rejects(bad.graphql('query Q { rateLimit { remaining } }', {}), GitHubAuthError);
    assert.equal(fake.counts.total, 1);
  });

  test('statistics answered 202 while computing are requested again until they are ready', async () => {
    const org = quietOrg('stats-org');
    org.repos[0]!.statsComputing = 3;
    fake.setOrg(org);
    const result = await client.commitActivity('stats-org', 'core');
    assert.equal(result.kind, 'ok');
    assert.equal(fake.counts.byStatus.get(202), 3);
    assert.equal(fake.counts.byStatus.get(200), 1);
  });

  test('statistics of a repository too large for them come back as too-large', async () => {
    const org = quietOrg('big-org');
    org.repos[0]!.statsTooLarge = true;
    fake.setOrg(org);
    assert.deepEqual(await client.commitActivity('big-org', 'core'), {
      kind: 'too-large',
      message: 'Repository contains more than 10,000 commits',
    });
  });

  test('repository search follows Link rel="next" pages', async () => {
    const items = await client.searchRepositories<{ full_name: string }>('topic:fhir fork:false', 5);
    assert.equal(items.length, 180);
    assert.equal(fake.counts.total, 2);
    assert.equal(new Set(items.map((i) => i.full_name)).size, 180);
  });
});

describe('GitHub client: starred repositories (Scout Score)', () => {
  let fake: FakeGitHub;
  const stars = Array.from({ length: 3 }, (_, i) => ({
    repo: `owner-${i}/repo-${i}`,
    starredAt: `2020-01-0${3 - i}T00:00:00Z`,
  }));
  const anonymous = (maxWaitSeconds?: number) =>
    fakeClient(fake, {
      token: undefined,
      concurrency: 2,
      retryBaseMs: 1,
      ...(maxWaitSeconds !== undefined ? { maxWaitSeconds } : {}),
    });

  before(async () => {
    fake = await FakeGitHub.start({ allowAnonymous: true, users: [{ login: 'stargazer', stars }] });
  });
  after(() => fake.close());

  test('a page of stars carries the starring times, oldest first, and says whether a next page exists', async () => {
    const client = anonymous();
    const first = await client.starredPage('stargazer', 1, 2, undefined);
    assert.equal(first.status, 200);
    if (first.status !== 200) return;
    assert.deepEqual(
      first.items.map((i) => i.starred_at),
      ['2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z'],
    );
    assert.equal(first.hasNext, true);
    const last = await client.starredPage('stargazer', 2, 2, undefined);
    assert.equal(last.status === 200 && last.hasNext, false);
    const again = await client.starredPage('stargazer', 1, 2, first.etag);
    assert.equal(again.status, 304);
  });

  test('an unknown user is GitHubNotFoundError', async () => {
    await assert.rejects(anonymous().starredPage('nobody', 1, 100, undefined), GitHubNotFoundError);
  });

  test('with maxWaitSeconds, a longer rate-limit wait fails at once with the seconds until the reset', async () => {
    fake.setRemaining('anon:core', 0, 120);
    const client = anonymous(5);
    await assert.rejects(
      client.starredPage('stargazer', 1, 100, undefined),
      (err: GitHubUnavailableError) =>
        err instanceof GitHubUnavailableError && err.retryAfterSeconds! > 5 && err.retryAfterSeconds! <= 121,
    );
    const spent = client.coreBudgetSpentFor();
    assert.ok(spent !== undefined && spent > 0 && spent <= 121);
    fake.setRemaining('anon:core', 60, 3600);
  });
});
