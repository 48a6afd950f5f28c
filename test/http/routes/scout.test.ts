import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ScoutPredictions, ScoutReceipts } from '../../../src/schemas/scout.js';
import { Startup } from '../../../src/schemas/signals.js';
import { FakeGitHub, type FakeStar } from '../../helpers/fake-github.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

const DAY = 86_400_000;

/** Ten validated IPOs (data/scout/validated-companies.yaml), each more than three years after 2012-01-01. */
const TEN_IPOS = [
  'gitlabhq/gitlabhq',
  'hashicorp/terraform',
  'mongodb/mongo',
  'elastic/elasticsearch',
  'DataDog/datadog-agent',
  'cloudflare/cloudflared',
  'fastly/go-fastly',
  'twilio/twilio-python',
  'jfrog/jfrog-cli',
  'digitalocean/doctl',
];

const USERS: { login: string; stars: FakeStar[] }[] = [
  {
    // HashiCorp IPO 2021-12-09, starred 2018-12-10: 1095 days, 3 years (cap): 10 × 1 × 4 = 40
    // npm acquisition 2020-03-16, starred 2019-03-17: 365 days, 1 year: 10 × 0.8 × 2 = 16
    // Hugging Face priced round 2023-08-24, starred 2023-06-25T12:00: 59 days: 10 × 0.6 × (1 + 59/365) = 6.97
    // GitLab IPO 2021-10-14, starred 2021-10-01: 13 days, a late star
    // points 62.97 → score round(100 × 62.97 / 162.97) = round(38.64) = 39 → sharp
    login: 'early-bird',
    stars: [
      { repo: 'hashicorp/terraform', starredAt: '2018-12-10T00:00:00Z', language: 'Go', topics: ['infrastructure'] },
      { repo: 'npm/cli', starredAt: '2019-03-17T00:00:00Z', language: 'JavaScript' },
      { repo: 'hashicorp/vault', starredAt: '2019-06-01T00:00:00Z', language: 'Go' },
      { repo: 'huggingface/transformers', starredAt: '2023-06-25T12:00:00Z', language: 'Python' },
      { repo: 'gitlabhq/gitlabhq', starredAt: '2021-10-01T00:00:00Z', language: 'Ruby' },
    ],
  },
  {
    // Elastic IPO 2018-10-05, starred 2019-01-01: after the milestone → 0 points, score 0, curious
    login: 'latecomer',
    stars: [{ repo: 'elastic/elasticsearch', starredAt: '2019-01-01T00:00:00Z', language: 'Java' }],
  },
  {
    // ten IPOs starred 2012-01-01, all more than 3 years early: 10 × 40 = 400 → round(100 × 400 / 500) = 80 → oracle
    login: 'Oracle-1',
    stars: TEN_IPOS.map((repo) => ({ repo, starredAt: '2012-01-01T00:00:00Z', language: 'Go' })),
  },
  {
    // 250 stars, one a day from 2010-01-01; with SCOUT_MAX_STAR_PAGES=2 only the oldest 200 are read.
    // Star 0 (2010-01-01) is HashiCorp, > 3 years before its IPO: 40 points → round(100 × 40 / 140) = 29 → scout.
    // Star 249 (2010-09-07) is MongoDB, also early, but beyond the bound, so it does not count.
    login: 'hoarder',
    stars: Array.from({ length: 250 }, (_, i) => ({
      repo: i === 0 ? 'hashicorp/terraform' : i === 249 ? 'mongodb/mongo' : `someone-${i}/repo`,
      starredAt: new Date(Date.UTC(2010, 0, 1) + i * DAY).toISOString(),
    })),
  },
];

const HOSTILE = [
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(40),
  'caf%C3%A9',
  '-leading',
  'double--hyphen',
  'trailing-',
];

describe('scout routes', () => {
  let fake: FakeGitHub;
  let svc: TestApp;
  let trackedOrg: string;

  before(async () => {
    fake = await FakeGitHub.start({ allowAnonymous: true, users: USERS });
    svc = await startTestApp({
      GITHUB_API_URL: fake.url,
      GITHUB_RETRY_BASE_MS: '1',
      SCOUT_MAX_STAR_PAGES: '2',
    });
    const snapshot = svc.service.holder.current!;
    trackedOrg = snapshot.startups[0]!.login;
    fake.setUser({
      login: 'sector-fan',
      stars: [
        { repo: `${trackedOrg}/app`, starredAt: '2024-01-01T00:00:00Z', language: 'TypeScript' },
        { repo: 'other/db', starredAt: '2024-01-02T00:00:00Z', language: 'TypeScript', topics: ['database'] },
      ],
    });
  });
  after(async () => {
    await svc.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.resetCounts();
    fake.clearFaults();
  });

  const receipts = async (user: string) => {
    const res = await svc.get(`/api/receipts/${user}`);
    assert.equal(res.status, 200, await res.clone().text());
    return ScoutReceipts.parse(await res.json());
  };

  test('receipts: score and rank of a user with three early calls match the hand computation', async () => {
    const body = await receipts('early-bird');
    assert.deepEqual([body.score, body.rank, body.stats.points], [39, 'sharp', 62.97]);
    assert.deepEqual(
      body.topEarlyCalls.map((c) => [c.org, c.leadDays, c.points]),
      [
        ['hashicorp', 1095, 40],
        ['npm', 365, 16],
        ['huggingface', 59, 6.97],
      ],
    );
    assert.equal(body.stats.lateStars, 1);
    assert.equal(body.topEarlyCalls[0]!.milestone.source, 'https://en.wikipedia.org/wiki/HashiCorp');
    assert.equal(body.cardUrl, `${svc.url}/api/scout/card/early-bird/svg`);
    assert.match(body.personality, /3 early calls/);
  });

  test('receipts carry exactly the documented fields', async () => {
    const res = await svc.get('/api/receipts/early-bird');
    assert.deepEqual(Object.keys((await res.json()) as object), [
      'username',
      'score',
      'rank',
      'topEarlyCalls',
      'personality',
      'cardUrl',
      'badgeUrl',
      'stats',
      'formula',
      'fetchedAt',
      'computedAt',
    ]);
  });

  test('receipts: stars only after the milestones score 0, curious', async () => {
    const body = await receipts('latecomer');
    assert.deepEqual([body.score, body.rank, body.topEarlyCalls.length], [0, 'curious', 0]);
  });

  test('receipts: ten three-year-early IPO calls make an oracle with score 80', async () => {
    const body = await receipts('Oracle-1');
    assert.deepEqual([body.score, body.rank, body.stats.earlyCalls, body.topEarlyCalls.length], [80, 'oracle', 10, 5]);
  });

  test('receipts: only the configured pages of the oldest stars are read', async () => {
    const body = await receipts('hoarder');
    assert.deepEqual(
      [body.score, body.rank, body.stats.starsAnalysed, body.stats.starsTruncated],
      [29, 'scout', 200, true],
    );
    assert.equal(
      fake.countWhere((r) => r.path.startsWith('/users/hoarder/starred')),
      2,
    );
  });

  test('a repeated look-up is served from the database without a GitHub request', async () => {
    await receipts('latecomer');
    fake.resetCounts();
    await receipts('latecomer');
    assert.equal(fake.counts.total, 0);
  });

  test('an unknown GitHub user is 404 problem+json', async () => {
    const res = await svc.get('/api/receipts/no-such-user');
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  });

  test('hostile usernames are 400 and never reach GitHub', async () => {
    for (const name of HOSTILE) {
      const res = await svc.get(`/api/receipts/${name}`);
      assert.equal(res.status, 400, name);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.doesNotMatch(await res.text(), /<script/i);
    }
    assert.equal(fake.counts.total, 0);
  });

  test('GitHub failing with 5xx: 503 with Retry-After', async () => {
    fake.injectFault({ match: (r) => r.path.startsWith('/users/broken-user/'), status: 502, times: 10 });
    const res = await svc.get('/api/receipts/broken-user');
    assert.equal(res.status, 503);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
  });

  test('predictions rank a starred tracked startup first, with reasons and its signal data', async () => {
    const res = await svc.get('/api/scout/predict?username=sector-fan&limit=3');
    assert.equal(res.status, 200);
    const body = ScoutPredictions.parse(await res.json());
    assert.equal(body.experimental, true);
    assert.ok(body.predictions.length >= 1 && body.predictions.length <= 3);
    const first = body.predictions[0]!;
    assert.equal(first.org, trackedOrg);
    assert.equal(first.rank, 1);
    assert.match(first.reasons[0]!, new RegExp(`You starred ${trackedOrg}/app on 2024-01-01`));
    Startup.parse(first.signal);
    assert.deepEqual(body.profile.sectors, [{ sector: 'data-infrastructure', weight: 1 }]);
  });

  test('predictions: a missing or invalid username is 400, limit out of range is 400', async () => {
    for (const q of ['', '?username=', '?username=%3Cscript%3E', '?username=ok&limit=0', '?username=ok&limit=21']) {
      const res = await svc.get(`/api/scout/predict${q}`);
      assert.equal(res.status, 400, q);
    }
    assert.equal(fake.counts.total, 0);
  });

  test('predictions for an unknown GitHub user are 404', async () => {
    const res = await svc.get('/api/scout/predict?username=no-such-user');
    assert.equal(res.status, 404);
  });

  test('scout badge: SVG with score and rank, ETag, cache headers and open CORS', async () => {
    const res = await svc.get('/api/badge/scout/early-bird/svg');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('cache-control') ?? '', /max-age=\d+/);
    const etag = res.headers.get('etag')!;
    assert.match(etag, /^"/);
    const svg = await res.text();
    assert.match(svg, /^<svg/);
    assert.match(svg, /39 · sharp/);
    const again = await svc.get('/api/badge/scout/early-bird/svg', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  test('scout badge: hostile usernames give an "invalid" SVG badge with 400, never reaching GitHub', async () => {
    for (const name of HOSTILE) {
      const res = await svc.get(`/api/badge/scout/${name}/svg`);
      assert.equal(res.status, 400, name);
      assert.match(res.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      const svg = await res.text();
      assert.match(svg, /invalid/);
      assert.doesNotMatch(svg, /<script|\.\.\/|café/i);
    }
    assert.equal(fake.counts.total, 0);
  });

  test('scout badge: an unknown user gives an "unknown user" badge with 404', async () => {
    const res = await svc.get('/api/badge/scout/no-such-user/svg');
    assert.equal(res.status, 404);
    assert.match(await res.text(), /unknown user/);
  });

  test('built-with badge: SVG with ETag', async () => {
    const res = await svc.get('/api/badge/built-with/svg');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.ok(res.headers.get('etag'));
    assert.match(await res.text(), /Signal Service/);
  });

  test('momentum badge: the tier of a tracked organisation, "untracked" otherwise', async () => {
    const entry = svc.service.holder.current!.byLogin.get(trackedOrg.toLowerCase())!;
    const composite = entry.scores.composite;
    const tier = composite >= 75 ? 'surging' : composite >= 50 ? 'rising' : composite >= 25 ? 'steady' : 'quiet';
    const tracked = await svc.get(`/api/badge/momentum/${trackedOrg}/app/svg`);
    assert.equal(tracked.status, 200);
    assert.match(await tracked.text(), new RegExp(`>${tier}<`));
    const untracked = await svc.get('/api/badge/momentum/not-tracked-org/repo.js/svg');
    assert.equal(untracked.status, 200);
    assert.match(await untracked.text(), />untracked</);
  });

  test('momentum badge: hostile org or repo segments give an "invalid" badge with 400', async () => {
    const segments = [
      ['%3Cscript%3E', 'repo'],
      ['org', '%3Cscript%3E'],
      ['org', '%2E%2E%2F'],
      ['a'.repeat(40), 'repo'],
      ['org', 'r'.repeat(101)],
      ['caf%C3%A9', 'repo'],
      ['org', '%E2%9C%93'],
    ];
    for (const [org, repo] of segments) {
      const res = await svc.get(`/api/badge/momentum/${org}/${repo}/svg`);
      assert.equal(res.status, 400, `${org}/${repo}`);
      const svg = await res.text();
      assert.match(svg, /invalid/);
      assert.doesNotMatch(svg, /<script|café|✓/);
    }
  });

  test('momentum badge: a bare .. segment is resolved by the URL before it is sent, so no badge route answers: 404', async () => {
    for (const path of ['/api/badge/momentum/../repo/svg', '/api/badge/momentum/org/../svg']) {
      assert.equal((await svc.get(path)).status, 404, path);
    }
  });

  test('the card renders the receipts as an escaped SVG', async () => {
    const res = await svc.get('/api/scout/card/early-bird/svg');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    const svg = await res.text();
    assert.match(svg, /HashiCorp: starred 2018-12-10, 3\.0 years before the ipo/);
    assert.match(svg, />39</);
  });

  test('the card of an invalid username is 400', async () => {
    const res = await svc.get('/api/scout/card/%3Cscript%3E/svg');
    assert.equal(res.status, 400);
  });

  test('the OpenAPI document describes every scout route', async () => {
    const doc = (await (await svc.get('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const path of [
      '/api/receipts/{username}',
      '/api/scout/predict',
      '/api/scout/card/{username}/svg',
      '/api/badge/scout/{username}/svg',
      '/api/badge/built-with/svg',
      '/api/badge/momentum/{org}/{repo}/svg',
    ]) {
      assert.ok(doc.paths[path], path);
    }
  });
  // Last: the client then trusts GitHub's reset time (30 s) and sends nothing more until it passes.
  test('GitHub rate-limited: 503 with Retry-After, and no request until the reset', async () => {
    fake.setRemaining('anon:core', 0, 30);
    const res = await svc.get('/api/receipts/rate-limited-user');
    assert.equal(res.status, 503);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(retryAfter > 5 && retryAfter <= 31, String(retryAfter));
    fake.resetCounts();
    const next = await svc.get('/api/receipts/another-user');
    assert.equal(next.status, 503);
    assert.ok(Number(next.headers.get('retry-after')) > 0);
    assert.equal(fake.counts.total, 0);
  });
});
