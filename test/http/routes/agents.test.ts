import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { anthropicTools, geminiTools, openAiTools } from '../../../src/agents/function-calling.js';
import { issueKey } from '../../../src/payments/keys.js';
import { SCOUT_USER, scoutEnv, startScoutGitHub } from '../../agents/mcp/suite.js';
import type { FakeGitHub } from '../../helpers/fake-github.js';
import { startTestService, type TestService } from '../../helpers/service.js';

type Json = Record<string, any>;

describe('agents catalog', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  test('/api/agents.json and /api/v1/agents.json serve the same bytes', async () => {
    const [a, b] = await Promise.all([svc.get('/api/agents.json'), svc.get('/api/v1/agents.json')]);
    assert.equal(a.status, 200);
    assert.equal(await a.text(), await b.text());
  });

  test('lists the eight tools with strict argument schemas', async () => {
    const body = (await (await svc.get('/api/agents.json')).json()) as Json;
    assert.deepEqual(
      body.tools.map((t: Json) => t.name),
      [
        'get_trending_startups',
        'search_startups_by_sector',
        'get_startup_signal',
        'get_diligence_dossier',
        'get_signals_summary',
        'get_scout_receipts',
        'get_methodology',
        'get_deep_signal',
      ],
    );
    for (const t of body.tools) assert.equal(t.inputSchema.additionalProperties, false, t.name);
  });

  test('each tool names its REST analog as an absolute URL', async () => {
    const body = (await (await svc.get('/api/agents.json')).json()) as Json;
    const signal = body.tools.find((t: Json) => t.name === 'get_startup_signal');
    assert.deepEqual([signal.rest.method, signal.rest.url], ['GET', `${svc.url}/api/signal`]);
  });

  test('the scout tool publishes the username bounds and pattern', async () => {
    const body = (await (await svc.get('/api/agents.json')).json()) as Json;
    const scout = body.tools.find((t: Json) => t.name === 'get_scout_receipts');
    const username = scout.inputSchema.properties.github_username;
    assert.deepEqual([username.minLength, username.maxLength, typeof username.pattern], [1, 39, 'string']);
    assert.deepEqual(scout.inputSchema.required, ['github_username']);
  });
});

describe('function calling: /api/agent/tools and /api/agent/call', () => {
  let svc: TestService;
  let github: FakeGitHub;
  let signals: Json;
  const call = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${svc.url}/api/agent/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const rest = async (path: string) => (await (await svc.get(path)).json()) as Json;

  before(async () => {
    github = await startScoutGitHub();
    svc = await startTestService(scoutEnv(github));
    signals = await rest('/api/signals.json');
  });
  after(async () => {
    await svc.close();
    await github.close();
  });

  test('each format serves the provider definitions', async () => {
    for (const [format, expected] of [
      ['openai', openAiTools()],
      ['anthropic', anthropicTools()],
      ['gemini', geminiTools()],
    ] as const) {
      const response = await svc.get(`/api/agent/tools?format=${format}`);
      assert.equal(response.status, 200, format);
      assert.deepEqual(await response.json(), expected, format);
    }
  });

  test('without a format: a catalog linking the three formats', async () => {
    const body = await rest('/api/agent/tools');
    assert.deepEqual(Object.keys(body.formats), ['openai', 'anthropic', 'gemini']);
    assert.equal(body.formats.gemini.url, `${svc.url}/api/agent/tools?format=gemini`);
    assert.equal(body.call.url, `${svc.url}/api/agent/call`);
  });

  test('an unknown format is 400', async () => {
    const response = await svc.get('/api/agent/tools?format=mistral');
    assert.equal(response.status, 400);
    assert.match(response.headers.get('content-type') ?? '', /problem\+json/);
  });

  test('every free tool answers the same data as its REST analog', async () => {
    const name = signals.trending[4].name as string;
    const cases: [string, Json, (result: Json) => Promise<void>][] = [
      ['get_trending_startups', {}, async (r) => assert.deepEqual(r.startups, signals.trending)],
      [
        'search_startups_by_sector',
        { sector: 'healthcare' },
        async ({ labels, ...r }) =>
          assert.deepEqual(
            r,
            signals.sectors.find((s: Json) => s.slug === 'healthcare'),
          ),
      ],
      [
        'get_startup_signal',
        { name },
        async ({ signalStrength, signalEvidence, ...r }) =>
          assert.deepEqual(r, {
            found: true,
            nameMatch: 'exact',
            startup: await rest(`/api/signal?company=${encodeURIComponent(name)}`),
          }),
      ],
      [
        'get_diligence_dossier',
        { company: name },
        async (r) => assert.deepEqual(r, await rest(`/api/diligence.json?company=${encodeURIComponent(name)}`)),
      ],
      ['get_signals_summary', {}, async (r) => assert.deepEqual(r.meta, signals.meta)],
      [
        'get_scout_receipts',
        { github_username: SCOUT_USER },
        async (r) => {
          const { computedAt: _a, ...got } = r;
          const { computedAt: _b, ...want } = await rest(`/api/receipts/${SCOUT_USER}`);
          assert.deepEqual(got, want);
        },
      ],
      ['get_methodology', {}, async (r) => assert.deepEqual(r, await rest('/api/v1/methodology.json'))],
    ];
    for (const [tool, args, check] of cases) {
      const response = await call({ name: tool, arguments: args });
      assert.equal(response.status, 200, tool);
      await check((await response.json()) as Json);
    }
  });

  test('arguments may be the JSON string a model produced', async () => {
    const response = await call({ name: 'get_startup_signal', arguments: JSON.stringify({ name: 'zzqx none qqzx' }) });
    assert.deepEqual(await response.json(), { found: false, nameMatch: 'none' });
  });

  test('an unknown tool is 404', async () => {
    const response = await call({ name: 'get_everything', arguments: {} });
    assert.equal(response.status, 404);
    assert.match(((await response.json()) as Json).detail, /get_everything/);
  });

  test('bad arguments are 400 with each field, as MCP validates them', async () => {
    for (const args of [{ name: 'x', extra: true }, {}, { name: 'x'.repeat(101) }, { name: 7 }]) {
      const response = await call({ name: 'get_startup_signal', arguments: args });
      assert.equal(response.status, 400, JSON.stringify(args));
      assert.ok(((await response.json()) as Json).errors.length > 0);
    }
    const badJson = await call({ name: 'get_startup_signal', arguments: '{"name":' });
    assert.equal(badJson.status, 400);
    const badUser = await call({ name: 'get_scout_receipts', arguments: { github_username: 'octo--cat' } });
    assert.equal(badUser.status, 400);
  });

  test('a malformed body is 400, never 5xx', async () => {
    for (const body of ['{', '[]', '{"arguments":{}}', '{"name":"get_methodology","extra":1}']) {
      const response = await fetch(`${svc.url}/api/agent/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      assert.equal(response.status, 400, body);
    }
  });

  test('get_deep_signal without a key is 401', async () => {
    const response = await call({ name: 'get_deep_signal', arguments: { name: 'x' } });
    assert.equal(response.status, 401);
    const wrong = await call({ name: 'get_deep_signal', arguments: { name: 'x' } }, { authorization: 'Bearer nope' });
    assert.equal(wrong.status, 401);
  });

  test('get_deep_signal 401 carries WWW-Authenticate: Bearer, invalid_token when a key was presented', async () => {
    const missing = await call({ name: 'get_deep_signal', arguments: { name: 'x' } });
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="signal-service"');
    const wrong = await call({ name: 'get_deep_signal', arguments: { name: 'x' } }, { authorization: 'Bearer nope' });
    assert.equal(wrong.headers.get('www-authenticate'), 'Bearer realm="signal-service", error="invalid_token"');
  });

  test('get_deep_signal takes the key by the one Bearer rule: any scheme case, exactly one space', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 5, reason: 'test' });
    const miss = { name: 'get_deep_signal', arguments: { name: 'zzqx none qqzx' } };
    const lower = await call(miss, { authorization: `bearer ${key}` });
    assert.equal(lower.status, 200);
    assert.equal(lower.headers.get('x-credits-balance'), '5');
    for (const authorization of [`Bearer  ${key}`, `Bearer\t${key}`, `Bearer ${key} extra`]) {
      const refused = await call(miss, { authorization });
      assert.equal(refused.status, 401, JSON.stringify(authorization));
      await refused.arrayBuffer();
    }
  });

  test('a free tool answers whatever the Authorization header holds (only the paid tool authenticates)', async () => {
    const response = await call({ name: 'get_methodology', arguments: {} }, { authorization: 'Bearer  malformed' });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  });

  test('get_deep_signal with a key answers as the REST route: one credit per hit, misses free, then 402', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 2, reason: 'test' });
    const auth = { authorization: `Bearer ${key}` };
    const name = signals.trending[0].name as string;
    const viaRest = await fetch(`${svc.url}/api/agent/deep-signal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ name }),
    });
    assert.equal(viaRest.status, 200);
    const expected = (await viaRest.json()) as Json;
    const hit = await call({ name: 'get_deep_signal', arguments: { name } }, auth);
    assert.equal(hit.status, 200);
    assert.equal(hit.headers.get('x-credits-balance'), '0');
    assert.deepEqual(await hit.json(), expected);
    const miss = await call({ name: 'get_deep_signal', arguments: { name: 'zzqx none qqzx' } }, auth);
    assert.deepEqual(await miss.json(), { found: false, charged: 0 });
    const broke = await call({ name: 'get_deep_signal', arguments: { name } }, auth);
    assert.equal(broke.status, 402);
  });

  test('OpenAPI operations with an agent analog link their tools (x-mcp-tool)', async () => {
    const doc = await rest('/api/openapi.json');
    const names = (op: Json) => (op['x-mcp-tool'] as Json[]).map((l) => l.name);
    assert.deepEqual(names(doc.paths['/api/signal'].get), ['get_startup_signal']);
    assert.deepEqual(names(doc.paths['/api/signals.json'].get), [
      'get_trending_startups',
      'search_startups_by_sector',
      'get_signals_summary',
    ]);
    assert.deepEqual(names(doc.paths['/api/agent/deep-signal'].post), ['get_deep_signal']);
    assert.deepEqual(names(doc.paths['/api/receipts/{username}'].get), ['get_scout_receipts']);
    assert.equal(doc.paths['/api/signal'].get['x-mcp-tool'][0].mcp, `${svc.url}/api/mcp/rpc`);
  });
});
