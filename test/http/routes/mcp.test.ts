import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { agentTools } from '../../../src/agents/registry.js';
import { alertAgentTools } from '../../../src/agents/alert-tools.js';
import { issueKey } from '../../../src/payments/keys.js';
import { ledgerTotals } from '../../../src/payments/ledger.js';
import { mcpConformance, scoutEnv, startScoutGitHub } from '../../agents/mcp/suite.js';
import type { FakeGitHub } from '../../helpers/fake-github.js';
import { openHoldsSettled } from '../../helpers/holds.js';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;
const ACCEPT = 'application/json, text/event-stream';

async function connect(svc: TestApp, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${svc.url}/api/mcp/rpc`), { requestInit: { headers } }),
  );
  return client;
}

describe('MCP over Streamable HTTP at /api/mcp/rpc', () => {
  let svc: TestApp;
  let github: FakeGitHub;
  let client: Client;
  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${svc.url}/api/mcp/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  before(async () => {
    github = await startScoutGitHub();
    svc = await startTestApp(
      { ...scoutEnv(github), MCP_ALLOWED_ORIGINS: 'https://app.example.test' },
      { snapshot: storedDemoPeriod, listen: true },
    );
    client = await connect(svc);
  });
  after(async () => {
    await client?.close();
    await svc?.close();
    await github?.close();
  });

  describe('official MCP client', () => {
    mcpConformance(
      async () => client,
      () => svc,
    );
  });

  test('get_deep_signal takes the Bearer key: a hit costs one credit, then 402', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 1, reason: 'test' });
    const paid = await connect(svc, { authorization: `Bearer ${key}` });
    try {
      const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
      const name = signals.trending[0].name as string;
      const hit = (await paid.callTool({ name: 'get_deep_signal', arguments: { name } })) as Json;
      assert.notEqual(hit.isError, true, JSON.stringify(hit.content));
      assert.deepEqual(
        [hit.structuredContent.found, hit.structuredContent.name, hit.structuredContent.charged],
        [true, name, 1],
      );
      const miss = (await paid.callTool({ name: 'get_deep_signal', arguments: { name: 'zzqx none qqzx' } })) as Json;
      assert.deepEqual(miss.structuredContent, { found: false, charged: 0 });
      const broke = (await paid.callTool({ name: 'get_deep_signal', arguments: { name } })) as Json;
      assert.equal(broke.isError, true);
      assert.match(broke.content[0].text, /^402 /);
    } finally {
      await paid.close();
    }
  });

  test('get_deep_signal over HTTP without an Idempotency-Key is held, and stands once the answer is delivered', async () => {
    const { key, accountId } = await issueKey(svc.service.store.db, { credits: 2, reason: 'test' });
    const paid = await connect(svc, { authorization: `Bearer ${key}` });
    try {
      const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
      const hit = (await paid.callTool({
        name: 'get_deep_signal',
        arguments: { name: signals.trending[0].name },
      })) as Json;
      assert.equal(hit.structuredContent.charged, 1);
      const db = svc.service.store.db;
      assert.equal(await openHoldsSettled(db, accountId), 0);
      assert.deepEqual(await ledgerTotals(db, accountId), { granted: 2, charged: 1, charges: 1, entries: 2 });
    } finally {
      await paid.close();
    }
  });

  test('get_deep_signal takes the key by the one Bearer rule: any scheme case, exactly one space', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 1, reason: 'test' });
    const miss = { name: 'get_deep_signal', arguments: { name: 'zzqx none qqzx' } };
    const lower = await connect(svc, { authorization: `bearer ${key}` });
    try {
      assert.deepEqual(((await lower.callTool(miss)) as Json).structuredContent, { found: false, charged: 0 });
    } finally {
      await lower.close();
    }
    const spaced = await connect(svc, { authorization: `Bearer  ${key}` });
    try {
      const refused = (await spaced.callTool(miss)) as Json;
      assert.equal(refused.isError, true);
      assert.match(refused.content[0].text, /^401 Unauthorized: The credit-pack key is not valid/);
    } finally {
      await spaced.close();
    }
  });

  test('GET is 405 (a stateless server opens no event stream)', async () => {
    const response = await fetch(`${svc.url}/api/mcp/rpc`, { headers: { accept: 'text/event-stream' } });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
  });

  test('answers tools/list in JSON without a session', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('mcp-session-id'), null);
    const body = (await response.json()) as Json;
    assert.equal(body.result.tools.length, agentTools.length + alertAgentTools.length);
  });

  test('a browser Origin outside the allowed list is 403; BASE_URL and configured origins pass', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    assert.equal((await rpc(list, { origin: 'https://evil.example.test' })).status, 403);
    assert.equal((await rpc(list, { origin: new URL(svc.url).origin })).status, 200);
    assert.equal((await rpc(list, { origin: 'https://app.example.test' })).status, 200);
  });

  test('an unsupported MCP-Protocol-Version header is 400', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-protocol-version': '1999-01-01' },
    );
    assert.equal(response.status, 400);
  });

  test('a supported MCP-Protocol-Version header is honoured', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    assert.equal(response.status, 200);
  });

  test('malformed JSON is a JSON-RPC parse error (−32700)', async () => {
    const response = await rpc('{"jsonrpc": "2.0", "id": 1,');
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as Json).error.code, -32700);
  });

  test('an Accept header without text/event-stream is 406', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json' });
    assert.equal(response.status, 406);
  });

  test('a notification is accepted with 202 and no body', async () => {
    const response = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(response.status, 202);
    assert.equal(await response.text(), '');
  });

  test('a tools/call with an unknown tool is a JSON-RPC error (−32602) in a 200 response', async () => {
    const response = await rpc({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'nope', arguments: {} },
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as Json;
    assert.equal(body.result, undefined);
    assert.equal(body.error.code, -32602);
    assert.match(body.error.message, /nope/);
    // The message is the server's own: a client adds "MCP error -32602: " once, not twice.
    assert.doesNotMatch(body.error.message, /^MCP error/);
  });

  test('the same server answers at /mcp, where MCP clients look by default', async () => {
    const client = new Client({ name: 'http-test-mcp', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, agentTools.length + alertAgentTools.length);
    } finally {
      await client.close();
    }
    const get = await fetch(`${svc.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
  });

  test('get_deep_signal with no credit left: 402 with the balance and where to buy credits', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 0, reason: 'test' });
    const paid = await connect(svc, { authorization: `Bearer ${key}` });
    try {
      const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
      const result = (await paid.callTool({
        name: 'get_deep_signal',
        arguments: { name: signals.trending[0].name },
      })) as Json;
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /^402 .*Balance: 0 credits\. Buy a credit pack at http\S+\/agents\/credits/);
      assert.deepEqual([result._meta.error.balance, result._meta.error.status], [0, 402]);
    } finally {
      await paid.close();
    }
  });

  test('get_deep_signal retried with the same _meta.idempotencyKey is charged once', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 5, reason: 'test' });
    const paid = await connect(svc, { authorization: `Bearer ${key}` });
    try {
      const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
      const request = {
        name: 'get_deep_signal',
        arguments: { name: signals.trending[1].name },
        _meta: { idempotencyKey: `mcp-${key.slice(-10)}` },
      };
      const first = (await paid.callTool(request)) as Json;
      const retry = (await paid.callTool(request)) as Json;
      assert.notEqual(first.isError, true, JSON.stringify(first.content));
      assert.deepEqual(retry.structuredContent, first.structuredContent);
      const credits = (await (
        await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key}` } })
      ).json()) as Json;
      assert.equal(credits.balance, 4);
    } finally {
      await paid.close();
    }
  });

  test('get_deep_signal retried with the same Idempotency-Key header is charged once', async () => {
    const { key } = await issueKey(svc.service.store.db, { credits: 5, reason: 'test' });
    const paid = await connect(svc, { authorization: `Bearer ${key}`, 'idempotency-key': `hdr-${key.slice(-10)}` });
    try {
      const signals = (await (await svc.get('/api/signals.json')).json()) as Json;
      const request = { name: 'get_deep_signal', arguments: { name: signals.trending[2].name } };
      const first = (await paid.callTool(request)) as Json;
      const retry = (await paid.callTool(request)) as Json;
      assert.deepEqual(retry.structuredContent, first.structuredContent);
      const credits = (await (
        await svc.get('/api/account/credits', { headers: { authorization: `Bearer ${key}` } })
      ).json()) as Json;
      assert.equal(credits.balance, 4);
    } finally {
      await paid.close();
    }
  });

  test('/.well-known/mcp.json names both transports and the registry tools', async () => {
    const manifest = (await (await svc.get('/.well-known/mcp.json')).json()) as Json;
    assert.deepEqual(
      manifest.transports.map((t: Json) => [t.type, t.command ?? t.url]),
      [
        ['stdio', 'signal-mcp'],
        ['streamable-http', `${svc.url}/mcp`],
        ['streamable-http', `${svc.url}/api/mcp/rpc`],
      ],
    );
    assert.deepEqual(manifest.capabilities, { tools: {}, resources: {}, prompts: {}, completions: {} });
    assert.deepEqual(
      manifest.prompts.map((p: Json) => p.name),
      ['weekly_sector_brief', 'diligence_memo'],
    );
    assert.deepEqual(
      manifest.tools.map((t: Json) => t.name),
      [...agentTools, ...alertAgentTools].map((t) => t.name),
    );
    assert.deepEqual(
      manifest.resourceTemplates.map((t: Json) => t.uriTemplate),
      ['signal://startup/{name}'],
    );
  });
});
