import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { agentTools } from '../../../src/agents/registry.js';
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

  test('lists the eight tools with their annotations and object output schemas', async () => {
    const { tools } = await (await client()).listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      agentTools.map((t) => t.name),
    );
    for (const tool of tools) {
      const declared = agentTools.find((t) => t.name === tool.name)!;
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
      agentTools.filter((t) => t.name !== 'get_deep_signal').map((t) => t.name),
    );
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
    const { signalStrength, signalEvidence, ...hit } = await call(c, 'get_startup_signal', { name });
    assert.deepEqual(hit, { found: true, nameMatch: 'exact', startup: expected });
    assert.ok(['strong', 'weak'].includes(signalStrength) && signalEvidence.startsWith(expected.signalType));
    assert.deepEqual(await call(c, 'get_startup_signal', { name: 'zzqx no such startup qqzx' }), {
      found: false,
      nameMatch: 'none',
    });
  });

  test('get_startup_signal reads a typo as /api/signal does and says so (nameMatch, X-Name-Match)', async () => {
    const rest = await restJson(service(), '/api/signals.json');
    const name = rest.trending[5].name as string;
    const typo = `${name}x`;
    const response = await fetch(`${service().url}/api/signal?company=${encodeURIComponent(typo)}`);
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
