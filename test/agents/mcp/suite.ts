import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC −32602 as either SDK's client throws it (1.x McpError, 2.x ProtocolError). */
function isInvalidParams(err: unknown): err is Error & { code: number } {
  return err instanceof Error && (err as { code?: unknown }).code === ErrorCode.InvalidParams;
}
import { agentTools } from '../../../src/agents/registry.js';
import { alertAgentTools } from '../../../src/agents/alert-tools.js';
import { FakeGitHub } from '../../helpers/fake-github.js';
import type { TestService } from '../../helpers/service.js';

type Json = Record<string, any>;

/** A GitHub user the fake GitHub knows, so get_scout_receipts runs without the real GitHub. */
export const SCOUT_USER = 'octo-scout';

export async function startScoutGitHub(): Promise<FakeGitHub> {
  return FakeGitHub.start({
    users: [
      { login: SCOUT_USER, stars: [{ repo: 'somebody/something', starredAt: '2024-01-02T03:04:05Z', language: 'Go' }] },
    ],
  });
}

export function scoutEnv(github: FakeGitHub): Record<string, string> {
  return { GITHUB_API_URL: github.url, GITHUB_TOKEN: github.token };
}

async function restJson(svc: TestService, path: string): Promise<Json> {
  const response = await svc.get(path);
  return (await response.json()) as Json;
}

/** The JSON text of the first content of a resource read. */
function resourceJson(read: { contents: Json[] }): Json {
  assert.equal(read.contents[0]!.mimeType, 'application/json');
  return JSON.parse(read.contents[0]!.text as string) as Json;
}

async function call(client: Client, name: string, args: Json = {}): Promise<Json> {
  const result = (await client.callTool({ name, arguments: args })) as Json;
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
  // The same JSON as text, for clients that predate structuredContent.
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, name);
  return result.structuredContent as Json;
}

/**
 * What every MCP transport must show, checked with the official client: `connect` gives a connected client,
 * `svc` is the HTTP service over the same data (its REST answers are the expected values).
 */
export function mcpConformance(connect: () => Promise<Client>, service: () => TestService): void {
  const client = () => connect();

  test('lists every registry tool and the alerts tools with their annotations and object output schemas', async () => {
    const { tools } = await (await client()).listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [...agentTools, ...alertAgentTools].map((t) => t.name),
    );
    for (const tool of tools) {
      const declared = [...agentTools, ...alertAgentTools].find((t) => t.name === tool.name)!;
      assert.deepEqual(
        (({ readOnlyHint, idempotentHint, destructiveHint, openWorldHint }) => ({
          readOnlyHint,
          idempotentHint,
          destructiveHint,
          openWorldHint,
        }))(tool.annotations!),
        declared.annotations,
        tool.name,
      );
      assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
    }
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    assert.deepEqual(
      readOnly,
      [...agentTools, ...alertAgentTools]
        .map((t) => t.name)
        .filter((n) => !['get_deep_signal', 'create_alert_subscription', 'delete_alert_subscription'].includes(n)),
    );
  });

  test('declares only the capabilities it delivers: no listChanged, no subscribe', async () => {
    const capabilities = (await client()).getServerCapabilities()!;
    assert.deepEqual(capabilities, { tools: {}, resources: {}, prompts: {}, completions: {} });
  });

  test('an unknown tool is a JSON-RPC protocol error (−32602), not a tool result', async () => {
    await assert.rejects(
      (await client()).callTool({ name: 'get_everything', arguments: {} }),
      (err: unknown) => isInvalidParams(err) && /get_everything/.test(err.message),
    );
  });

  test('tool results link the resources they describe, and each link reads', async () => {
    const c = await client();
    const rest = await restJson(service(), '/api/signals.json');
    const name = rest.trending[0].name as string;
    const links = async (tool: string, args: Json) =>
      ((await c.callTool({ name: tool, arguments: args })).content as Json[]).filter((p) => p.type === 'resource_link');
    assert.deepEqual(
      (await links('get_trending_startups', {})).map((l) => l.uri),
      ['signal://trending'],
    );
    const [startup] = await links('get_startup_signal', { name });
    assert.equal(startup!.uri, `signal://startup/${encodeURIComponent(name)}`);
    const read = await c.readResource({ uri: startup!.uri });
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).startup.name, name);
    assert.deepEqual(await links('get_startup_signal', { name: 'Zorblax Qwerty Unknown' }), []);
  });

  test('get_startup_signal gives the candidates of a miss, as /api/signal does', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const name = rest.trending[2].name as string;
    // The startup's first word with another distinctive word: not this startup, but offered as a candidate.
    const near = `${name.split(' ')[0]} Zorblax`;
    const response = await service().get(`/api/signal?company=${encodeURIComponent(near)}`);
    const body = (await response.json()) as Json;
    const result = await call(await client(), 'get_startup_signal', { name: near });
    assert.deepEqual([result.found, result.nameMatch], [false, response.headers.get('x-name-match')]);
    assert.ok(result.candidates.some((c: Json) => c.name === name));
    assert.deepEqual(result.candidates, body.candidates);
  });

  test('lists the prompts: weekly_sector_brief and diligence_memo, with their arguments', async () => {
    const { prompts } = await (await client()).listPrompts();
    assert.deepEqual(
      prompts.map((p) => [p.name, p.arguments!.map((a) => `${a.name}${a.required ? '' : '?'}`)]),
      [
        ['weekly_sector_brief', ['sector', 'period?']],
        ['diligence_memo', ['company']],
      ],
    );
  });

  test('weekly_sector_brief carries the sector ranking the tool answers', async () => {
    const c = await client();
    const prompt = await c.getPrompt({ name: 'weekly_sector_brief', arguments: { sector: 'robotics' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    const ranking = await call(c, 'search_startups_by_sector_in_period', { sector: 'robotics', limit: 10 });
    assert.ok(text.includes(JSON.stringify(ranking, null, 2)));
    assert.equal(prompt.messages[0]!.role, 'user');
  });

  test('diligence_memo carries the dossier of the company named', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const company = rest.trending[0].name as string;
    const c = await client();
    const prompt = await c.getPrompt({ name: 'diligence_memo', arguments: { company } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    const dossier = await call(c, 'get_diligence_dossier', { company });
    assert.ok(text.includes(JSON.stringify(dossier, null, 2)));
  });

  test('a prompt without its required argument is a JSON-RPC error (−32602)', async () => {
    await assert.rejects((await client()).getPrompt({ name: 'weekly_sector_brief', arguments: {} }), (err: unknown) =>
      isInvalidParams(err),
    );
  });

  test('an unknown prompt is a JSON-RPC error (−32602)', async () => {
    await assert.rejects((await client()).getPrompt({ name: 'nope' }), (err: unknown) => isInvalidParams(err));
  });

  test('completes sector slugs for a prompt argument', async () => {
    const { completion } = await (
      await client()
    ).complete({
      ref: { type: 'ref/prompt', name: 'weekly_sector_brief' },
      argument: { name: 'sector', value: 'rob' },
    });
    assert.deepEqual(completion.values, ['robotics']);
  });

  test('completes period slugs, newest first', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const { completion } = await (
      await client()
    ).complete({
      ref: { type: 'ref/prompt', name: 'weekly_sector_brief' },
      argument: { name: 'period', value: '' },
    });
    assert.equal(completion.values[0], rest.meta.period.slug);
    assert.ok(completion.values.every((v) => /^\d{4}-w\d{2}$/.test(v)));
  });

  test('completes startup names for signal://startup/{name} and for diligence_memo', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const name = rest.trending[0].name as string;
    const c = await client();
    const typed = name.slice(0, 3).toLowerCase();
    const template = await c.complete({
      ref: { type: 'ref/resource', uri: 'signal://startup/{name}' },
      argument: { name: 'name', value: typed },
    });
    assert.ok(template.completion.values.includes(name));
    assert.ok(template.completion.values.length <= 100);
    assert.ok(template.completion.values.every((v) => v.toLowerCase().includes(typed)));
    const memo = await c.complete({
      ref: { type: 'ref/prompt', name: 'diligence_memo' },
      argument: { name: 'company', value: typed },
    });
    assert.deepEqual(memo.completion.values, template.completion.values);
  });

  test('get_deep_signal without a key names where to buy credits', async () => {
    const result = (await (await client()).callTool({ name: 'get_deep_signal', arguments: { name: 'x' } })) as Json;
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /Buy a credit pack at http\S+\/agents\/credits/);
    assert.match(result._meta.error.purchaseUrl, /\/agents\/credits$/);
  });

  test('get_trending_startups answers the trending list of /api/signals.json', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const result = await call(await client(), 'get_trending_startups');
    assert.deepEqual(result.startups, rest.trending);
    assert.deepEqual(result.period, rest.meta.period);
  });

  test('search_startups_by_sector answers the sector entry of /api/signals.json', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const { labels, ...result } = await call(await client(), 'search_startups_by_sector', { sector: 'robotics' });
    assert.deepEqual(
      result,
      rest.sectors.find((s: Json) => s.slug === 'robotics'),
    );
    assert.equal(labels.length, result.startups.length);
  });

  test('get_startup_signal answers what /api/signal answers, with how the name matched, and found: false for a miss', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const name = rest.trending[3].name as string;
    const expected = await restJson(service(), `/api/signal?company=${encodeURIComponent(name)}`);
    const c = await client();
    const { signalStrength, signalEvidence, signalFinding, stageSource, ...hit } = await call(c, 'get_startup_signal', {
      name,
    });
    assert.deepEqual(hit, { found: true, nameMatch: 'exact', startup: expected });
    assert.ok(['estimated', 'watchlist'].includes(stageSource) || /^https:\/\//.test(stageSource), stageSource);
    assert.ok(['strong', 'weak'].includes(signalStrength) && signalEvidence.startsWith(expected.signalType));
    assert.equal(signalFinding, expected.signalType);
    assert.deepEqual(await call(c, 'get_startup_signal', { name: 'zzqx no such startup qqzx' }), {
      found: false,
      nameMatch: 'none',
    });
  });

  test('get_startup_signal reads a typo as /api/signal does and says so (nameMatch, X-Name-Match)', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const name = rest.trending[5].name as string;
    const typo = `${name}x`;
    const response = await service().get(`/api/signal?company=${encodeURIComponent(typo)}`);
    const body = (await response.json()) as { candidates?: unknown[] };
    const result = await call(await client(), 'get_startup_signal', { name: typo });
    assert.equal(result.nameMatch, response.headers.get('x-name-match'));
    if (result.found) assert.deepEqual(result.startup, body);
    else assert.deepEqual(result.candidates ?? [], body.candidates ?? []);
  });

  test('get_diligence_dossier answers the /api/diligence.json body', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const company = rest.trending[0].name as string;
    const expected = await restJson(service(), `/api/diligence.json?company=${encodeURIComponent(company)}`);
    assert.deepEqual(await call(await client(), 'get_diligence_dossier', { company }), expected);
  });

  test('get_signals_summary answers the meta of /api/signals.json with format URLs', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const result = await call(await client(), 'get_signals_summary');
    assert.deepEqual(result.meta, rest.meta);
    assert.equal(result.formats.csv, `${service().url}/api/signals.csv`);
    assert.equal(result.sectors.length, 15);
  });

  test('get_scout_receipts answers the /api/receipts body', async () => {
    const expected = await restJson(service(), `/api/receipts/${SCOUT_USER}`);
    const result = await call(await client(), 'get_scout_receipts', { github_username: SCOUT_USER });
    const { computedAt: _a, ...got } = result;
    const { computedAt: _b, ...want } = expected;
    assert.deepEqual(got, want);
  });

  test('get_methodology answers /api/v1/methodology.json', async () => {
    const expected = await restJson(service(), '/api/v1/methodology.json');
    assert.deepEqual(await call(await client(), 'get_methodology'), expected);
  });

  test('an extra argument is rejected as a tool error', async () => {
    const result = (await (
      await client()
    ).callTool({
      name: 'get_startup_signal',
      arguments: { name: 'anything', extra: 1 },
    })) as Json;
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /extra/);
  });

  test('get_deep_signal without a key is a tool error naming the key', async () => {
    const result = (await (await client()).callTool({ name: 'get_deep_signal', arguments: { name: 'x' } })) as Json;
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /^401 .*credit-pack key/);
  });

  test('the resources signal://summary and signal://trending hold the tools’ data', async () => {
    const c = await client();
    const { resources } = await c.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), ['signal://summary', 'signal://trending']);
    const summary = await c.readResource({ uri: 'signal://summary' });
    assert.deepEqual(resourceJson(summary), await call(c, 'get_signals_summary'));
    const trending = await c.readResource({ uri: 'signal://trending' });
    assert.deepEqual(resourceJson(trending), await call(c, 'get_trending_startups'));
  });

  test('the template signal://startup/{name} decodes the name before matching it', async () => {
    const c = await client();
    const { resourceTemplates } = await c.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ['signal://startup/{name}'],
    );
    const rest = await restJson(service(), '/api/signals.json');
    const name = (rest.trending as Json[]).map((s) => s.name as string).find((n) => n.includes(' '))!;
    const read = await c.readResource({ uri: `signal://startup/${encodeURIComponent(name)}` });
    const body = resourceJson(read);
    assert.equal(body.found, true);
    assert.equal(body.startup.name, name);
  });
}
