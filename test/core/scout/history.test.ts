import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import net from 'node:net';
import { ScoutError, StarHistories, UNREACHABLE_MEMORY_SECONDS } from '../../../src/core/scout/history.js';
import { GitHubClient } from '../../../src/github/client.js';
import { migrateToLatest, openStore, type Store } from '../../../src/store/database.js';
import { createTestStorage, type TestStorage } from '../../helpers/database.js';
import { FakeGitHub, type FakeStar, fakeClient } from '../../helpers/fake-github.js';

const DAY = 86_400_000;

/** `n` stars, one a day from 2015-01-01, on repositories owner-i/repo-i. */
function manyStars(n: number): FakeStar[] {
  return Array.from({ length: n }, (_, i) => ({
    repo: `owner-${i}/repo-${i}`,
    starredAt: new Date(Date.UTC(2015, 0, 1) + i * DAY).toISOString().replace('.000Z', 'Z'),
    language: 'Go',
  }));
}

describe('star histories', () => {
  let fake: FakeGitHub;
  let storage: TestStorage;
  let store: Store;
  let now = Date.now();

  const histories = (maxPages = 2, ttlSeconds = 3600) =>
    new StarHistories(
      store.db,
      fakeClient(fake, { token: undefined, concurrency: 2, retryBaseMs: 1, maxWaitSeconds: 5 }),
      { ttlSeconds, maxPages, now: () => now },
    );
  const starredRequests = (user: string) => fake.countWhere((r) => r.path.startsWith(`/users/${user}/starred`));

  before(async () => {
    fake = await FakeGitHub.start({
      allowAnonymous: true,
      users: [
        { login: 'many', stars: manyStars(250) },
        { login: 'few', stars: manyStars(3) },
      ],
    });
    storage = await createTestStorage({ contents: 'migrated' });
    store = await openStore({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl, poolSize: 2 });
    await migrateToLatest(store.db);
  });
  after(async () => {
    await store.close();
    await storage.cleanup();
    await fake.close();
  });
  beforeEach(async () => {
    fake.resetCounts();
    fake.clearFaults();
    fake.setRemaining('anon:core', 60, 3600);
    now = Date.now();
    await store.db.deleteFrom('scout_star_cache').execute();
  });

  test('reads stars with their starring times, oldest first, and stops at the page bound', async () => {
    const history = await histories(2).get('many');
    assert.equal(starredRequests('many'), 2);
    assert.equal(history.stars.length, 200);
    assert.equal(history.truncated, true);
    assert.deepEqual(history.stars[0], {
      at: '2015-01-01T00:00:00Z',
      owner: 'owner-0',
      name: 'repo-0',
      language: 'Go',
      topics: [],
    });
    assert.match(fake.log[0]!.path, /direction=asc/);
  });

  test('a history shorter than a page takes one request and is complete', async () => {
    const history = await histories(2).get('few');
    assert.equal(starredRequests('few'), 1);
    assert.deepEqual([history.stars.length, history.truncated], [3, false]);
  });

  test('within the TTL a look-up costs no GitHub request', async () => {
    const h = histories(2);
    await h.get('few');
    fake.resetCounts();
    const again = await h.get('few');
    assert.equal(fake.counts.total, 0);
    assert.equal(again.requests, 0);
    assert.equal(again.stars.length, 3);
  });

  test('after the TTL every cached page is revalidated with its ETag and a 304 costs no quota', async () => {
    const h = histories(3, 60);
    await h.get('many');
    const remainingBefore = (await fetch(`${fake.url}/users/few/starred`)).headers.get('x-ratelimit-remaining');
    fake.resetCounts();
    now += 61_000;
    const again = await h.get('many');
    assert.equal(fake.counts.notModified, 3);
    assert.equal(again.stars.length, 250);
    const remainingAfter = (await fetch(`${fake.url}/users/few/starred`)).headers.get('x-ratelimit-remaining');
    // only the two probes of this test spent quota
    assert.equal(Number(remainingBefore) - Number(remainingAfter), 1);
  });

  test('a star added since the last read is picked up after the TTL', async () => {
    const h = histories(2, 60);
    await h.get('few');
    fake.setUser({ login: 'few', stars: [...manyStars(3), { repo: 'new/one', starredAt: '2026-01-01T00:00:00Z' }] });
    now += 61_000;
    const again = await h.get('few');
    assert.equal(again.stars.at(-1)!.owner, 'new');
    fake.setUser({ login: 'few', stars: manyStars(3) });
  });

  test('an unknown user is 404, and is remembered without asking GitHub again', async () => {
    const h = histories();
    await assert.rejects(h.get('nobody-here'), (err: ScoutError) => err.status === 404);
    fake.resetCounts();
    await assert.rejects(h.get('nobody-here'), (err: ScoutError) => err.status === 404);
    assert.equal(fake.counts.total, 0);
  });

  test('a spent budget is 503 with Retry-After, and later look-ups do not ask GitHub until the reset', async () => {
    const h = histories();
    fake.setRemaining('anon:core', 0, 600);
    await assert.rejects(h.get('few'), (err: ScoutError) => {
      const retryAfter = Number(err.retryAfterSeconds);
      return err.status === 503 && retryAfter > 0 && retryAfter <= 601;
    });
    fake.resetCounts();
    await assert.rejects(
      h.get('many'),
      (err: ScoutError) => err.status === 503 && /60 requests an hour/.test(err.detail ?? ''),
    );
    assert.equal(fake.counts.total, 0);
  });

  test('when GitHub fails, a stale history is served rather than an error', async () => {
    const h = histories(2, 60);
    await h.get('few');
    now += 61_000;
    fake.injectFault({ match: (r) => r.path.startsWith('/users/few/'), status: 502, times: 100 });
    const stale = await h.get('few');
    assert.equal(stale.stars.length, 3);
    assert.equal(stale.requests, 0);
  });

  test('GitHub unreachable without a cached history is 503 with Retry-After', async () => {
    const h = histories();
    fake.injectFault({ match: (r) => r.path.startsWith('/users/few/'), status: 503, times: 100 });
    await assert.rejects(h.get('few'), (err: ScoutError) => err.status === 503 && Number(err.retryAfterSeconds) > 0);
  });

  test('after a look-up found GitHub unreachable, the next ones fail at once for a while, then try again', async () => {
    // A port nothing listens on: every request is refused, no status ever comes back.
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const client = new GitHubClient({
      token: undefined,
      apiUrl: `http://127.0.0.1:${closed}`,
      concurrency: 1,
      queryIntervalMs: 0,
      retryBaseMs: 1,
      maxWaitSeconds: 5,
    });
    const h = new StarHistories(store.db, client, { ttlSeconds: 3600, maxPages: 2, now: () => now });
    const unavailable = (err: ScoutError) => err.status === 503 && Number(err.retryAfterSeconds) > 0;
    await assert.rejects(h.get('nobody-cached-a'), unavailable);
    const sent = client.total.requests;
    await assert.rejects(
      h.get('nobody-cached-b'),
      (err: ScoutError) => unavailable(err) && /last look-up/.test(err.detail!),
    );
    assert.equal(client.total.requests, sent, 'no request while GitHub counts as unreachable');
    now += (UNREACHABLE_MEMORY_SECONDS + 1) * 1000;
    await assert.rejects(h.get('nobody-cached-b'), unavailable);
    assert.ok(client.total.requests > sent, 'the first look-up after the pause tries GitHub again');
  });

  test('simultaneous look-ups of one user share one read', async () => {
    const h = histories(2);
    const [a, b] = await Promise.all([h.get('FEW'), h.get('few')]);
    assert.equal(starredRequests('FEW') + starredRequests('few'), 1);
    assert.equal(a, b);
  });
});
