import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';

describe('NLWeb route', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp({}, { snapshot: storedDemoPeriod });
  });
  after(() => svc.close());

  const ask = (body: string, contentType = 'application/json') =>
    svc.fetch(`${svc.url}/api/nlweb`, { method: 'POST', headers: { 'content-type': contentType }, body });

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

  test('a question naming a startup with a typo in its distinctive word is not answered as that Organization (only /api/signal reads such a typo)', async () => {
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

describe('NLWeb /ask protocol at /api/nlweb/ask', () => {
  type Message = { message_type: string; query_id: string } & Record<string, any>;
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const get = (params: Record<string, string>) => app.get(`/api/nlweb/ask?${new URLSearchParams(params)}`);
  /** The Server-Sent Events of a streamed answer, parsed. */
  async function events(res: Response): Promise<Message[]> {
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await res.text();
    return text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)) as Message);
  }

  test('streaming by default: api_version first, the results in a result_batch, complete last, every message with the query_id', async () => {
    const messages = await events(await get({ query: 'fastest accelerating robotics startups', query_id: 'q-1' }));
    assert.equal(messages[0]!.message_type, 'api_version');
    assert.equal(messages.at(-1)!.message_type, 'complete');
    assert.ok(messages.every((m) => m.query_id === 'q-1'));
    const batch = messages.find((m) => m.message_type === 'result_batch')!;
    assert.ok(batch.results.length > 0);
    for (const r of batch.results) {
      assert.deepEqual(Object.keys(r).sort(), [
        'description',
        'name',
        'ranking_type',
        'schema_object',
        'score',
        'site',
        'siteUrl',
        'url',
      ]);
    }
    assert.equal(batch.results[0].ranking_type, 'answer');
    assert.equal(batch.results[0].schema_object['@type'], 'Organization');
  });

  test('streaming=false: one JSON object with query, query_id and results', async () => {
    const res = await get({ query: 'Do credits expire?', streaming: 'false' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as Record<string, any>;
    assert.match(body.query_id, /^nlweb-/);
    assert.equal(body.api_version, '0.1');
    assert.equal(body.decontextualized_query, 'Do credits expire?');
    assert.ok(Array.isArray(body.results) && body.results.length > 0);
    assert.equal(body.results[0].schema_object['@type'], 'Question');
  });

  test('POST takes the same parameters in a JSON body', async () => {
    const res = await app.get('/api/nlweb/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Do credits expire?', streaming: false, query_id: 'abc' }),
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { query_id: string }).query_id, 'abc');
  });

  test('at the root, where NLWeb clients look: GET /ask with query and POST /ask answer the protocol', async () => {
    const viaApi = (await (
      await get({ query: 'Do credits expire?', streaming: 'false', query_id: 'r' })
    ).json()) as object;
    const viaGet = await app.get(
      `/ask?${new URLSearchParams({ query: 'Do credits expire?', streaming: 'false', query_id: 'r' })}`,
    );
    assert.equal(viaGet.status, 200);
    assert.deepEqual(await viaGet.json(), viaApi);
    const viaPost = await app.get('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Do credits expire?', streaming: false, query_id: 'r' }),
    });
    assert.deepEqual(await viaPost.json(), viaApi);
    const streamed = await events(await app.get('/ask?query=fastest%20accelerating%20robotics%20startups'));
    assert.equal(streamed.at(-1)!.message_type, 'complete');
  });

  test("the website's ask page keeps /ask?q=, and an over-long NLWeb query at /ask is 400", async () => {
    const page = await app.get('/ask?q=Do%20credits%20expire%3F');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const long = await app.get(`/ask?query=${'a'.repeat(281)}`);
    assert.equal(long.status, 400);
    assert.match(long.headers.get('content-type') ?? '', /^application\/problem\+json/);
  });

  test('generate_mode=summarize adds a summary; generate adds an nlws answer with its items', async () => {
    const summarize = await events(await get({ query: 'Do credits expire?', generate_mode: 'summarize' }));
    assert.equal(typeof summarize.find((m) => m.message_type === 'summary')?.message, 'string');
    const generate = await events(await get({ query: 'Do credits expire?', mode: 'generate' }));
    const nlws = generate.find((m) => m.message_type === 'nlws')!;
    assert.equal(typeof nlws.answer, 'string');
    assert.ok(nlws.items.length >= 1);
  });

  test('a startup found by the search carries its Organization, without additionalProperty', async () => {
    const name = app.service.holder.current!.startups[0]!.startup.name;
    const body = (await (await get({ query: name, streaming: 'false' })).json()) as Record<string, any>;
    const org = body.results.find((r: any) => r.schema_object['@type'] === 'Organization')!.schema_object;
    assert.equal(org.additionalProperty, undefined);
    assert.equal(org.subjectOf[0]['@type'], 'Dataset');
  });

  test('a decontextualized_query is the query answered', async () => {
    const body = (await (
      await get({ query: 'and do they expire?', decontextualized_query: 'Do credits expire?', streaming: '0' })
    ).json()) as Record<string, any>;
    assert.equal(body.decontextualized_query, 'Do credits expire?');
    assert.equal(body.results[0].schema_object['@type'], 'Question');
  });

  test('nothing found: a no_results message, and still complete', async () => {
    const messages = await events(await get({ query: 'zzqxv wwqpt' }));
    assert.ok(messages.some((m) => m.message_type === 'no_results'));
    assert.equal(messages.at(-1)!.message_type, 'complete');
    assert.ok(!messages.some((m) => m.message_type === 'result_batch'));
  });

  test('a missing or too long query, or a bad query_id, is 400', async () => {
    for (const params of [{}, { query: 'x'.repeat(281) }, { query: 'ok', query_id: 'no spaces allowed' }]) {
      const res = await get(params as Record<string, string>);
      assert.equal(res.status, 400, JSON.stringify(params).slice(0, 40));
    }
  });

  test('the OpenAPI document describes GET and POST with both response forms', async () => {
    const doc = (await (await app.get('/api/openapi.json')).json()) as any;
    const op = doc.paths['/api/nlweb/ask'];
    assert.equal(op.get.operationId, 'nlwebAsk');
    assert.equal(op.post.operationId, 'nlwebAskPost');
    assert.deepEqual(Object.keys(op.get.responses['200'].content).sort(), ['application/json', 'text/event-stream']);
  });
});
