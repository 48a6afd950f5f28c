import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Anthropic from '@anthropic-ai/sdk';
import type { Part as GeminiPart } from '@google/genai';
import type OpenAI from 'openai';
import {
  anthropicTools,
  geminiTools,
  openAiResponsesTools,
  openAiTools,
} from '../../../src/agents/function-calling.js';
import { agentTools, findTool } from '../../../src/agents/registry.js';
import { issueKey } from '../../../src/payments/keys.js';
import { creditState, ledgerTotals, openHolds, releaseHold } from '../../../src/payments/ledger.js';
import { authenticatorFor, runTool } from '../../../src/agents/invoke.js';
import { SCOUT_USER, scoutEnv, startScoutGitHub } from '../../agents/mcp/suite.js';
import type { FakeGitHub } from '../../helpers/fake-github.js';
import { openHoldsSettled } from '../../helpers/holds.js';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;

describe('agents catalog', () => {
  let svc: TestApp;
  before(async () => {
    svc = await startTestApp({}, { snapshot: storedDemoPeriod });
  });
  after(() => svc.close());

  test('/api/agents.json and /api/v1/agents.json serve the same bytes', async () => {
    const [a, b] = await Promise.all([svc.get('/api/agents.json'), svc.get('/api/v1/agents.json')]);
    assert.equal(a.status, 200);
    assert.equal(await a.text(), await b.text());
  });

  test('lists every registry tool with strict argument schemas', async () => {
    const body = (await (await svc.get('/api/agents.json')).json()) as Json;
    assert.deepEqual(
      body.tools.map((t: Json) => t.name),
      agentTools.map((t) => t.name),
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
  let svc: TestApp;
  let github: FakeGitHub;
  let signals: Json;
  const call = (body: unknown, headers: Record<string, string> = {}) =>
    svc.fetch(`${svc.url}/api/agent/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const rest = async (path: string) => (await (await svc.get(path)).json()) as Json;

  before(async () => {
    github = await startScoutGitHub();
    svc = await startTestApp(scoutEnv(github), { snapshot: storedDemoPeriod });
    signals = await rest('/api/signals.json');
  });
  after(async () => {
    await svc.close();
    await github.close();
  });

  test('each format serves the provider definitions', async () => {
    for (const [format, expected] of [
      ['openai', openAiTools()],
      ['openai-responses', openAiResponsesTools()],
      ['anthropic', anthropicTools()],
      ['gemini', geminiTools()],
    ] as const) {
      const response = await svc.get(`/api/agent/tools?format=${format}`);
      assert.equal(response.status, 200, format);
      assert.deepEqual(await response.json(), expected, format);
    }
  });

  test('without a format: a catalog linking the formats', async () => {
    const body = await rest('/api/agent/tools');
    assert.deepEqual(Object.keys(body.formats), ['openai', 'openai-responses', 'anthropic', 'gemini']);
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
        async ({ signalStrength, signalEvidence, signalFinding, stageSource, evidenceDetails, ...r }) =>
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
      const response = await svc.fetch(`${svc.url}/api/agent/call`, {
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
    const viaRest = await svc.fetch(`${svc.url}/api/agent/deep-signal`, {
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

  test('get_deep_signal without an Idempotency-Key is charged on hold, which stands once the answer is delivered', async () => {
    const { key, accountId } = await issueKey(svc.service.store.db, { credits: 2, reason: 'test' });
    const name = signals.trending[0].name as string;
    const hit = await call({ name: 'get_deep_signal', arguments: { name } }, { authorization: `Bearer ${key}` });
    assert.equal(hit.status, 200);
    await hit.arrayBuffer();
    const db = svc.service.store.db;
    assert.equal(await openHoldsSettled(db, accountId), 0);
    assert.deepEqual(await ledgerTotals(db, accountId), { granted: 2, charged: 1, charges: 1, entries: 2 });
  });

  test('a held agent charge whose answer never reached the client is given back', async () => {
    const { key, accountId } = await issueKey(svc.service.store.db, { credits: 2, reason: 'test' });
    const ctx = svc.service.core;
    const held: number[] = [];
    const result = await runTool(
      findTool('get_deep_signal')!,
      { name: signals.trending[0].name },
      {
        ctx,
        authenticate: authenticatorFor(ctx, { authorization: `Bearer ${key}` }),
        holdCharge: { seconds: 60, settle: (hold) => held.push(hold) },
      },
    );
    assert.equal(result['charged'], 1);
    assert.equal(held.length, 1, 'the surface is handed the hold to settle');
    assert.equal(await openHolds(ctx.store.db, accountId), 1);
    await releaseHold(ctx.store.db, held[0]!); // the connection closed before the answer was written
    assert.equal((await creditState(ctx.store.db, accountId))!.balance, 2);
  });

  test('OpenAPI operations with an agent analog link their tools (x-mcp-tool)', async () => {
    const doc = await rest('/api/openapi.json');
    const names = (op: Json) => (op['x-mcp-tool'] as Json[]).map((l) => l.name);
    assert.deepEqual(names(doc.paths['/api/signal'].get), ['get_startup_signal', 'get_startup_signal_in_period']);
    assert.deepEqual(names(doc.paths['/api/signals.json'].get), [
      'get_trending_startups',
      'search_startups_by_sector',
      'get_signals_summary',
      'get_trending_startups_in_period',
      'search_startups_by_sector_in_period',
      'compare_startups',
    ]);
    assert.deepEqual(names(doc.paths['/api/llms-search'].get), ['search_site']);
    assert.deepEqual(names(doc.paths['/api/answer'].get), ['ask']);
    assert.deepEqual(names(doc.paths['/api/agent/deep-signal'].post), ['get_deep_signal']);
    assert.deepEqual(names(doc.paths['/api/receipts/{username}'].get), ['get_scout_receipts']);
    assert.equal(doc.paths['/api/signal'].get['x-mcp-tool'][0].mcp, `${svc.url}/api/mcp/rpc`);
  });

  const mcpName = () => signals.trending[0].name as string;
  const deepSignalCall = (name: string) => ({ name: 'get_deep_signal', arguments: { name } });

  test('runs an OpenAI Chat Completions tool_calls item as the API emits it', async () => {
    const item: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall = {
      id: 'call_abc',
      type: 'function',
      function: { name: 'get_startup_signal_in_period', arguments: JSON.stringify({ name: mcpName(), period: null }) },
    };
    const response = await call(item);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as Json).startup.name, mcpName());
  });

  test('runs an OpenAI Responses function_call item as the API emits it', async () => {
    const item: OpenAI.Responses.ResponseFunctionToolCall = {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_1',
      name: 'get_trending_startups_in_period',
      arguments: JSON.stringify({ period: null, limit: 3 }),
      status: 'completed',
    };
    const response = await call(item);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as Json).startups.length, 3);
  });

  test('runs an Anthropic tool_use block and the bare {name, input}', async () => {
    const block: Anthropic.ToolUseBlock = {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'get_startup_signal',
      input: { name: mcpName() },
      caller: { type: 'direct' },
    };
    for (const body of [block, { name: 'get_startup_signal', input: { name: mcpName() } }]) {
      const response = await call(body);
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(((await response.json()) as Json).found, true);
    }
  });

  test('runs a Gemini functionCall part and the bare {name, args}', async () => {
    const part: GeminiPart = { functionCall: { name: 'get_startup_signal', args: { name: mcpName() } } };
    for (const body of [part, { name: 'get_startup_signal', args: { name: mcpName() } }]) {
      const response = await call(body);
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(((await response.json()) as Json).found, true);
    }
  });

  test('a body in no known shape is 400 listing the shapes', async () => {
    const response = await call({ tool: 'get_methodology' });
    assert.equal(response.status, 400);
    assert.ok(((await response.json()) as Json).callShapes.anthropic);
  });

  test('get_deep_signal 401 carries the purchase URL', async () => {
    const response = await call(deepSignalCall('x'));
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as Json).purchaseUrl, `${svc.url}/agents/credits`);
  });

  test('get_deep_signal 402 carries the purchase URL and the balance', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 0, reason: 'test' });
    const response = await call(deepSignalCall(mcpName()), { authorization: `Bearer ${key}` });
    assert.equal(response.status, 402);
    const body = (await response.json()) as Json;
    assert.deepEqual([body.purchaseUrl, body.balance], [`${svc.url}/agents/credits`, 0]);
  });

  test('get_deep_signal retried with the same Idempotency-Key is answered once and charged once', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 3, reason: 'test' });
    const headers = { authorization: `Bearer ${key}`, 'idempotency-key': `retry-${key.slice(-8)}` };
    const first = await call(deepSignalCall(mcpName()), headers);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-credits-balance'), '2');
    const retry = await call(deepSignalCall(mcpName()), headers);
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.headers.get('x-credits-balance'), '2');
    assert.deepEqual(await retry.json(), await first.json());
    const other = await call(deepSignalCall('zzqx none qqzx'), headers);
    assert.equal(other.status, 422);
    const credits = (await (await svc.get('/api/account/credits', { headers })).json()) as Json;
    assert.equal(credits.balance, 2);
  });

  test('an Idempotency-Key that is not visible ASCII is 400', async () => {
    const response = await call(deepSignalCall('x'), { 'idempotency-key': 'a b' });
    assert.equal(response.status, 400);
  });

  test('search_site answers what GET /api/llms-search answers', async () => {
    const name = mcpName();
    const expected = await rest(`/api/llms-search?q=${encodeURIComponent(name)}&limit=3`);
    const response = await call({ name: 'search_site', arguments: { q: name, limit: 3 } });
    assert.deepEqual(await response.json(), expected);
  });

  test('ask answers the best answer of GET /api/answer, with its citations', async () => {
    const question = `What is the signal of ${mcpName()}?`;
    const expected = await rest(`/api/answer?q=${encodeURIComponent(question)}`);
    const body = (await (await call({ name: 'ask', arguments: { question } })).json()) as Json;
    if (expected.found === false) assert.equal(body.found, false);
    else {
      assert.deepEqual(body, { found: true, answer: expected });
      assert.ok(body.answer.url && body.answer.facts.every((f: Json) => f.sourceUrl));
    }
  });

  test('ask says why there is no answer (reason), never a guess', async () => {
    const body = (await (
      await call({ name: 'ask', arguments: { question: 'Should I invest in the next big startup?' } })
    ).json()) as Json;
    assert.equal(body.found, false);
    assert.equal(typeof body.reason, 'string');
    assert.equal(body.answer, undefined);
  });

  test('list_periods names the stored weeks newest first, the current one marked', async () => {
    const body = (await (await call({ name: 'list_periods', arguments: {} })).json()) as Json;
    assert.equal(body.current.slug, signals.meta.period.slug);
    assert.equal(body.periods.length, body.total);
    assert.equal(body.periods[0].slug, signals.meta.period.slug);
    assert.equal(body.periods[0].current, true);
    const sorted = [...body.periods]
      .map((p: Json) => p.slug)
      .sort()
      .reverse();
    assert.deepEqual(
      body.periods.map((p: Json) => p.slug),
      sorted,
    );
    const two = (await (await call({ name: 'list_periods', arguments: { limit: 1 } })).json()) as Json;
    assert.equal(two.periods.length, 1);
  });

  test('read tools answer an earlier period from the stored history', async () => {
    const periods = (await (await call({ name: 'list_periods', arguments: {} })).json()) as Json;
    assert.ok(periods.total >= 2, 'the test data stores more than one week');
    const earlier = periods.periods[1].slug as string;
    const trending = (await (
      await call({ name: 'get_trending_startups_in_period', arguments: { period: earlier, limit: 5 } })
    ).json()) as Json;
    assert.equal(trending.period.slug, earlier);
    assert.equal(trending.startups.length, trending.labels.length);
    assert.ok(trending.startups.length <= 5);
    const sector = (await (
      await call({
        name: 'search_startups_by_sector_in_period',
        arguments: { sector: 'robotics', period: earlier, limit: 2 },
      })
    ).json()) as Json;
    assert.equal(sector.period.slug, earlier);
    assert.ok(sector.startups.length <= 2 && sector.startupCount >= sector.startups.length);
    const lines = (await (await svc.get('/api/dataset.jsonl')).text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Json);
    const top = lines.find((l) => l.period === earlier && l.rank === 1)!;
    assert.equal(trending.startups[0].name, top.name);
    const one = (await (
      await call({ name: 'get_startup_signal_in_period', arguments: { name: top.org, period: earlier } })
    ).json()) as Json;
    assert.deepEqual(
      [one.found, one.period.slug, one.startup.commitVelocity14d],
      [true, earlier, top.commitVelocity14d],
    );
  });

  test('a period that is not stored is 404 naming list_periods', async () => {
    const response = await call({ name: 'get_trending_startups_in_period', arguments: { period: '1999-w01' } });
    assert.equal(response.status, 404);
    assert.match(((await response.json()) as Json).detail, /list_periods/);
  });

  test('get_startup_history: one entry per stored week, the most recent `limit`', async () => {
    const name = mcpName();
    const body = (await (await call({ name: 'get_startup_history', arguments: { name, limit: 4 } })).json()) as Json;
    assert.deepEqual([body.found, body.nameMatch, body.name], [true, 'exact', name]);
    assert.ok(body.history.length <= 4 && body.history.length >= 1);
    assert.equal(body.history.at(-1).period, signals.meta.period.slug);
    assert.equal(body.history.at(-1).commitVelocity14d, signals.trending[0].commitVelocity14d);
  });

  test('get_startup_history is strict: a typo in a distinctive word is a miss with candidates, never another company', async () => {
    const [first, ...rest] = mcpName().split(' ');
    const typo = [`${first}x`, ...rest].join(' ');
    const body = (await (await call({ name: 'get_startup_history', arguments: { name: typo } })).json()) as Json;
    assert.equal(body.found, false);
    assert.notEqual(body.nameMatch, 'typo');
    assert.deepEqual(body.history, []);
  });

  test('compare_startups: each name with how it matched, the leader by composite score', async () => {
    const [a, b] = [signals.trending[0], signals.trending[1]] as Json[];
    const body = (await (
      await call({ name: 'compare_startups', arguments: { names: [a!.name, b!.name, 'zzqx none qqzx'] } })
    ).json()) as Json;
    assert.equal(body.period.slug, signals.meta.period.slug);
    assert.deepEqual(
      body.startups.map((s: Json) => [s.query, s.found, s.nameMatch]),
      [
        [a!.name, true, 'exact'],
        [b!.name, true, 'exact'],
        ['zzqx none qqzx', false, 'none'],
      ],
    );
    assert.deepEqual(body.startups[0].startup, a);
    assert.equal(body.startups[0].rankOverall, 1);
    assert.equal(body.leader, a!.name);
  });
});
