import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, type TestService } from '../../helpers/service.js';

describe('NLWeb route', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const ask = (body: string, contentType = 'application/json') =>
    fetch(`${svc.url}/api/nlweb`, { method: 'POST', headers: { 'content-type': contentType }, body });

  async function jsonLd(query: string) {
    const res = await ask(JSON.stringify({ query }));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/ld\+json/);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body['@context'], 'https://schema.org');
    return body;
  }

  test('a list question answers an ItemList of Organizations', async () => {
    const body = await jsonLd('fastest accelerating robotics startups');
    assert.equal(body['@type'], 'ItemList');
    const items = body.itemListElement as { item: { '@type': string; url: string } }[];
    assert.ok(items.length > 0);
    assert.ok(items.every((i) => i.item['@type'] === 'Organization' && i.item.url.startsWith(`${svc.url}/startups/`)));
  });

  test('a question about one startup answers an Organization', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as { trending: { name: string }[] };
    const name = signals.trending[0]!.name;
    const body = await jsonLd(`What is the engineering signal for ${name}?`);
    assert.equal(body['@type'], 'Organization');
    assert.equal(body.name, name);
  });

  test('a question about the data answers a Dataset', async () => {
    const body = await jsonLd('How many startups does the service track?');
    assert.equal(body['@type'], 'Dataset');
  });

  test('an unanswerable question answers a JSON-LD No result with status 200', async () => {
    const body = await jsonLd('banana smoothie recipe');
    assert.equal(body['@type'], 'ItemList');
    assert.equal(body.name, 'No result');
    assert.equal(body.numberOfItems, 0);
  });

  test('a null body, wrong types, missing or empty query, invalid JSON and a 281-character query are 400', async () => {
    for (const body of [
      'null',
      '{}',
      '[]',
      '{"query": 5}',
      '{"query": ""}',
      '{"query"',
      JSON.stringify({ query: 'q'.repeat(281) }),
      JSON.stringify({ query: 'q'.repeat(10_000) }),
    ]) {
      const res = await ask(body);
      assert.equal(res.status, 400, body.slice(0, 30));
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    }
  });

  test('a form body and a plain-text body are 415', async () => {
    assert.equal((await ask('query=hello', 'application/x-www-form-urlencoded')).status, 415);
    assert.equal((await ask('hello', 'text/plain')).status, 415);
  });

  test('HTML in the query stays inside the JSON-LD strings', async () => {
    const res = await ask(JSON.stringify({ query: '<script>alert(1)</script> robots' }));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/ld\+json/);
    await res.json();
  });
});
