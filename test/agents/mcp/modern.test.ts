import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as LegacyOnlyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { agentTools } from '../../../src/agents/registry.js';
import { alertAgentTools } from '../../../src/agents/alert-tools.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { mcpConformance, scoutEnv, startScoutGitHub } from './suite.js';
import type { FakeGitHub } from '../../helpers/fake-github.js';

type Json = Record<string, any>;
const ROOT = path.resolve(import.meta.dirname, '../../..');
const MODERN = '2026-07-28';
const ACCEPT = 'application/json, text/event-stream';

/** The per-request envelope a 2026-07-28 request carries in its `_meta`. */
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
};

async function pinned(svc: TestService, path = '/api/mcp/rpc'): Promise<Client> {
  const client = new Client(
    { name: 'modern-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}${path}`)));
  return client;
}

describe('MCP 2026-07-28 over Streamable HTTP, beside 2025-11-25', () => {
  let svc: TestService;
  let github: FakeGitHub;
  let client: Client;
  const post = (method: string, params: Json = {}, headers: Record<string, string> = {}) =>
    fetch(`${svc.url}/api/mcp/rpc`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: ACCEPT,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
    });

  before(async () => {
    github = await startScoutGitHub();
    svc = await startTestService(scoutEnv(github));
    client = await pinned(svc);
  });
  after(async () => {
    await client?.close();
    await svc?.close();
    await github?.close();
  });

  test('a client pinned to 2026-07-28 connects and speaks the modern revision', () => {
    assert.equal(client.getProtocolEra(), 'modern');
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  });

  test('a client in auto mode picks 2026-07-28; a 2025-only client still gets 2025-11-25', async () => {
    const auto = new Client({ name: 'auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await auto.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
    const legacy = new LegacyOnlyClient({ name: 'legacy', version: '1.0.0' });
    await legacy.connect(new LegacyTransport(new URL(`${svc.url}/mcp`)));
    try {
      assert.equal(auto.getProtocolEra(), 'modern');
      assert.equal(legacy.getServerVersion()?.name, 'signal-service');
      const [modernTools, legacyTools] = [(await auto.listTools()).tools, (await legacy.listTools()).tools];
      assert.deepEqual(
        modernTools.map((t) => t.name),
        legacyTools.map((t) => t.name),
      );
    } finally {
      await auto.close();
      await legacy.close();
    }
  });

  describe('the conformance suite, with the 2.x client pinned to 2026-07-28', () => {
    // The suite is written against the 1.x client's methods, which the 2.x client keeps.
    mcpConformance(
      async () => client as unknown as LegacyClient,
      () => svc,
    );
  });

  test('server/discover names both revisions and the server, with icons, website and description', async () => {
    const response = await post('server/discover');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('mcp-session-id'), null);
    const { result } = (await response.json()) as Json;
    assert.ok(result.supportedVersions.includes(MODERN), JSON.stringify(result.supportedVersions));
    const serverInfo = result._meta['io.modelcontextprotocol/serverInfo'];
    assert.equal(serverInfo.name, 'signal-service');
    assert.equal(serverInfo.websiteUrl, `${svc.url}/`);
    assert.equal(serverInfo.icons[0].src, `${svc.url}/assets/icon.svg`);
    assert.match(serverInfo.description, /engineering-acceleration/);
    assert.deepEqual(Object.keys(result.capabilities).sort(), ['completions', 'prompts', 'resources', 'tools']);
  });

  test('list results carry public cache hints of an hour; the tool list is the same on every instance', async () => {
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const { result } = (await (await post(method)).json()) as Json;
      assert.deepEqual([result.ttlMs, result.cacheScope], [3_600_000, 'public'], method);
      assert.equal(result.resultType, 'complete', method);
    }
    const other = await startTestService(scoutEnv(github));
    try {
      const names = async (url: string) => {
        const response = await fetch(`${url}/api/mcp/rpc`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: ACCEPT,
            'mcp-protocol-version': MODERN,
            'mcp-method': 'tools/list',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope } }),
        });
        return ((await response.json()) as Json).result.tools.map((t: Json) => t.name) as string[];
      };
      assert.deepEqual(await names(other.url), await names(svc.url));
      assert.deepEqual(
        await names(other.url),
        [...agentTools, ...alertAgentTools].map((t) => t.name),
      );
    } finally {
      await other.close();
    }
  });

  test('a tool call needs no session: each request stands alone', async () => {
    const response = await post(
      'tools/call',
      { name: 'get_signals_summary', arguments: {} },
      {
        'mcp-name': 'get_signals_summary',
      },
    );
    assert.equal(response.status, 200);
    const { result } = (await response.json()) as Json;
    assert.equal(result.isError, undefined);
    assert.equal(result.structuredContent.sectors.length, 15);
  });

  test('an unknown tool is a JSON-RPC error (-32602) in this revision too', async () => {
    const response = await post('tools/call', { name: 'no_such_tool', arguments: {} }, { 'mcp-name': 'no_such_tool' });
    const { error } = (await response.json()) as Json;
    assert.equal(error.code, -32602);
  });

  test('a cursor the server never gave is -32602', async () => {
    const { error } = (await (await post('tools/list', { cursor: 'not-a-cursor' })).json()) as Json;
    assert.equal(error.code, -32602);
  });

  test('a JSON-RPC batch is refused with -32600', async () => {
    const response = await fetch(`${svc.url}/api/mcp/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }]),
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as Json).error.code, -32600);
  });

  test('signal-mcp over stdio speaks 2026-07-28 to a pinned client, with the same tools', async () => {
    const stdio = new Client(
      { name: 'modern-stdio', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    // A subclass probes on its own connection; the base transport would first spawn a second signal-mcp for the
    // probe alone, which doubles the start-up this test waits for.
    class OneProcess extends StdioClientTransport {}
    await stdio.connect(
      new OneProcess({
        command: process.execPath,
        args: ['--import', 'tsx', path.join(ROOT, 'src/cli/mcp.ts')],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          DATA_DIR: svc.storage.dataDir,
          ...(svc.storage.databaseUrl ? { DATABASE_URL: svc.storage.databaseUrl } : {}),
          BASE_URL: svc.url,
          LOG_LEVEL: 'warn',
          ...scoutEnv(github),
        },
        stderr: 'ignore',
      }),
    );
    try {
      assert.equal(stdio.getProtocolEra(), 'modern');
      assert.deepEqual(
        (await stdio.listTools()).tools.map((t) => t.name),
        [...agentTools, ...alertAgentTools].map((t) => t.name),
      );
      const result = (await stdio.callTool({ name: 'get_signals_summary', arguments: {} })) as Json;
      assert.equal(result.structuredContent.sectors.length, 15);
    } finally {
      await stdio.close();
    }
  });
});
