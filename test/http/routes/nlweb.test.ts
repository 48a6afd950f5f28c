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

  test('a question naming an absent real company answers No result saying it is not tracked', async () => {
    const body = await jsonLd('How is GitLab doing?');
    assert.equal(body['@type'], 'ItemList');
    assert.equal(body.name, 'No result');
    assert.match(String(body.description), /GitLab is not tracked/);
  });

  test('a question naming a startup with a typo is not answered as that Organization (only /api/signal reads typos)', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as { trending: { name: string }[] };
    const name = signals.trending.map((t) => t.name).find((n) => n.split(' ')[0]!.length >= 6)!;
    const [first, ...rest] = name.split(' ');
    const typo = [first!.slice(0, 2) + first!.slice(3), ...rest].join(' ');
    const body = await jsonLd(`Tell me about ${typo}`);
    assert.notEqual(body['@type'], 'Organization');
    assert.match(String(body.description), new RegExp(`${typo} is not tracked`));
  });

  test('a first name shared by two startups never answers one of them', async () => {
    const signals = (await (await svc.get('/api/signals.json')).json()) as {
      sectors: { startups: { name: string }[] }[];
    };
    const count = new Map<string, number>();
    for (const { name } of signals.sectors.flatMap((s) => s.startups)) {
      count.set(name.split(' ')[0]!, (count.get(name.split(' ')[0]!) ?? 0) + 1);
    }
    const first = [...count].find(([, n]) => n === 2)![0];
    const body = await jsonLd(`What is the engineering signal for ${first}?`);
    assert.notEqual(body['@type'], 'Organization');
  });

  test('a generic word is not read as a company', async () => {
    const body = await jsonLd('health');
    assert.notEqual(body['@type'], 'Organization');
  });

  test('a question about a sector the service does not have says so', async () => {
    const body = await jsonLd('top biotech startups');
    assert.equal(body.name, 'No result');
    assert.match(String(body.description), /no biotech sector/);
  });

  test('a diligence question answers a Question with the sourced answer', async () => {
    const body = await jsonLd('Who acquired Red Hat?');
    assert.equal(body['@type'], 'Question');
    assert.match(JSON.stringify(body.acceptedAnswer), /IBM/);
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
