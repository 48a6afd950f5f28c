import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { FakeGitHub } from '../../helpers/fake-github.js';
import { createTestStorage } from '../../helpers/database.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { mcpConformance, scoutEnv, startScoutGitHub } from './suite.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const COMMAND = [process.execPath, '--import', 'tsx', path.join(ROOT, 'src/cli/mcp.ts')] as const;

/** The environment of a signal-mcp child reading the same data as the test service. */
function childEnv(svc: TestService, github: FakeGitHub, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: svc.storage.dataDir,
    ...(svc.storage.databaseUrl ? { DATABASE_URL: svc.storage.databaseUrl } : {}),
    BASE_URL: svc.url,
    LOG_LEVEL: 'warn',
    ...scoutEnv(github),
    ...extra,
  };
}

describe('signal-mcp over stdio (official MCP client)', () => {
  let svc: TestService;
  let github: FakeGitHub;
  let client: Client;
  before(async () => {
    github = await startScoutGitHub();
    svc = await startTestService(scoutEnv(github));
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: COMMAND[0],
        args: COMMAND.slice(1),
        env: childEnv(svc, github),
        stderr: 'ignore',
      }),
    );
  });
  after(async () => {
    await client?.close();
    await svc?.close();
    await github?.close();
  });

  mcpConformance(
    async () => client,
    () => svc,
  );

  // Each case below starts children of its own, which mostly wait on their start: the cases run at once.
  describe('children of their own', { concurrency: true }, () => {
    test('writes nothing but JSON-RPC messages on stdout', async () => {
      const child = spawn(COMMAND[0], COMMAND.slice(1), {
        env: childEnv(svc, github, { LOG_LEVEL: 'debug' }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.resume();
      const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      while (!stdout.includes('"id":2')) await once(child.stdout, 'data');
      child.stdin.end();
      await once(child, 'exit');
      const lines = stdout.split('\n').filter((line) => line.length > 0);
      assert.equal(lines.length, 2);
      for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, '2.0');
    });

    test('a client that goes away while the indexes are still being built leaves no error in the log', async () => {
      // A data directory of its own on the embedded engine, holding the demo data a first start stores (a prepared
      // copy, so the child does not store it again): the warm-up then takes seconds.
      const own = await createTestStorage({ forceEmbedded: true, contents: 'demo' });
      after(() => own.cleanup());
      const { DATABASE_URL: _shared, ...env } = childEnv(svc, github, { LOG_LEVEL: 'info', DATA_DIR: own.dataDir });
      const child = spawn(COMMAND[0], COMMAND.slice(1), { env, stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        })}\n`,
      );
      // The data is open and the warm-up has just begun: the client leaves now.
      while (!stderr.includes('serving local data')) await once(child.stderr, 'data');
      child.stdin.end();
      const [code] = (await once(child, 'exit')) as [number];
      assert.equal(code, 0);
      const errors = stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((entry) => entry.level >= 50);
      assert.deepEqual(errors, []);
    });

    test('answers initialize and tools/list without waiting for the data; a call it cannot serve says why', async () => {
      // A DATA_DIR under a regular file can never be opened (and no DATABASE_URL, so the embedded store is the one
      // asked for): initialize must not depend on it.
      const { DATABASE_URL: _unused, ...embeddedEnv } = childEnv(svc, github);
      const blocked = new Client({ name: 'stdio-no-data', version: '1.0.0' });
      await blocked.connect(
        new StdioClientTransport({
          command: COMMAND[0],
          args: COMMAND.slice(1),
          env: { ...embeddedEnv, DATA_DIR: `${path.join(ROOT, 'package.json')}/data` },
          stderr: 'ignore',
        }),
      );
      try {
        assert.equal(blocked.getServerVersion()?.name, 'signal-service');
        const { tools } = await blocked.listTools();
        assert.ok(tools.length > 8);
        const result = (await blocked.callTool({ name: 'list_periods', arguments: {} })) as {
          isError?: boolean;
          content: { text: string }[];
        };
        assert.equal(result.isError, true);
        assert.match(result.content[0]!.text, /^503 .*could not open its data/);
      } finally {
        await blocked.close();
      }
    });

    // One child in proxy mode answers both cases: nothing they ask changes it.
    describe('with SIGNAL_BASE_URL', () => {
      let remote: Client;
      before(async () => {
        remote = new Client({ name: 'stdio-proxy-test', version: '1.0.0' });
        // No database of its own: a DATA_DIR that does not exist would fail if it were opened.
        await remote.connect(
          new StdioClientTransport({
            command: COMMAND[0],
            args: COMMAND.slice(1),
            env: { ...childEnv(svc, github), DATA_DIR: '/nonexistent/signal-mcp', SIGNAL_BASE_URL: svc.url },
            stderr: 'ignore',
          }),
        );
      });
      after(() => remote?.close());

      test('it answers from that deployment', async () => {
        const expected = (await (await svc.get('/api/v1/methodology.json')).json()) as unknown;
        const result = await remote.callTool({ name: 'get_methodology', arguments: {} });
        assert.deepEqual(result.structuredContent, expected);
        const bad = await remote.callTool({ name: 'get_startup_signal', arguments: { name: '' } });
        assert.equal(bad.isError, true);
      });

      test('completions come from that deployment', async () => {
        const signals = (await (await svc.get('/api/signals.json')).json()) as { trending: { name: string }[] };
        const name = signals.trending[0]!.name;
        const { completion } = await remote.complete({
          ref: { type: 'ref/resource', uri: 'signal://startup/{name}' },
          argument: { name: 'name', value: name.slice(0, 4) },
        });
        assert.ok(completion.values.includes(name));
      });
    });
  });
});
