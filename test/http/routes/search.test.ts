import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SEARCH_TYPES, SearchResponse } from '../../../src/schemas/answers.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

const q = (text: string) => encodeURIComponent(text);

describe('site search route', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp();
  });
  after(() => svc.close());

  const search = async (params: string) => {
    const res = await svc.get(`/api/llms-search?${params}`);
    assert.equal(res.status, 200, params);
    return SearchResponse.parse(await res.json());
  };

  test('answers {query, total, hits} with 10 hits by default', async () => {
    const body = await search(`q=${q('robotics startups')}`);
    assert.equal(body.query, 'robotics startups');
    assert.equal(body.hits.length, 10);
    assert.ok(body.total >= body.hits.length);
    for (const hit of body.hits) {
      assert.deepEqual(Object.keys(hit).sort(), ['score', 'snippet', 'title', 'type', 'url']);
      assert.ok(hit.url.startsWith(`${svc.url}/`));
    }
  });

  test('every one of the seven types can be searched alone', async () => {
    const queries: Record<string, string> = {
      startup: 'robotics',
      sector: 'robotics',
      blog: 'demo dataset',
      comparison: 'compare',
      answer: 'fastest accelerating',
      faq: 'licence',
      research: 'median',
    };
    for (const type of SEARCH_TYPES) {
      const body = await search(`q=${q(queries[type]!)}&type=${type}&limit=50`);
      assert.ok(body.hits.length > 0, type);
      assert.ok(
        body.hits.every((h) => h.type === type),
        type,
      );
      assert.equal(body.total >= body.hits.length, true);
    }
  });

  test('limit is honoured from 1 to 50', async () => {
    assert.equal((await search(`q=startups&limit=1`)).hits.length, 1);
    assert.equal((await search(`q=startups&limit=50`)).hits.length, 50);
  });

  test('limit 0, 51 or text, an unknown type, a missing or 281-character q are 400 problem+json', async () => {
    for (const params of [
      'q=a&limit=0',
      'q=a&limit=51',
      'q=a&limit=x',
      'q=a&type=people',
      '',
      `q=${'b'.repeat(281)}`,
    ]) {
      const res = await svc.get(`/api/llms-search?${params}`);
      assert.equal(res.status, 400, params);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    }
  });

  test('snippets come from the text around the matched words', async () => {
    const body = await search(`q=${q('floor')}&type=faq&limit=3`);
    assert.ok(body.hits.some((h) => /floor/i.test(h.snippet)));
  });

  test('a query that matches nothing answers total 0 and no hits', async () => {
    assert.deepEqual(await search(`q=${q('xylophonequartz')}`), {
      query: 'xylophonequartz',
      total: 0,
      hits: [],
      synthetic: true,
    });
  });

  test('hostile queries never give a 5xx and are echoed only inside JSON', async () => {
    for (const hostile of ['<img src=x onerror=alert(1)>', "1' UNION SELECT * FROM periods --", 'Ünïcödé 🚀']) {
      const res = await svc.get(`/api/llms-search?q=${q(hostile)}`);
      assert.equal(res.status, 200, hostile);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(((await res.json()) as { query: string }).query, hostile);
    }
  });
});
