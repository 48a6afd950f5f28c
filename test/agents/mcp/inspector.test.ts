import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { agentTools } from '../../../src/agents/registry.js';
import { alertAgentTools } from '../../../src/agents/alert-tools.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * MCP Inspector's command line, run as a developer runs it: `mcp-inspector --cli <target> --method …`. The package
 * is @modelcontextprotocol/inspector 0.15.0, the newest that runs on Node 20 (0.16 and later require Node 22; the
 * separately published inspector-cli 1.0.3 installs but cannot start outside the Inspector's own repository). It
 * picks the HTTP transport for a URL ending in /mcp, which is why the service answers there as well as at
 * /api/mcp/rpc.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const INSPECTOR = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const run = promisify(execFile);

type Json = Record<string, any>;

async function inspect(args: string[]): Promise<Json> {
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...args], {
    cwd: ROOT,
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as Json;
}

describe('MCP Inspector CLI', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  test('lists the tools over HTTP at /mcp', async () => {
    const result = await inspect([`${svc.url}/mcp`, '--method', 'tools/list']);
    assert.deepEqual(
      result.tools.map((t: Json) => t.name),
      [...agentTools, ...alertAgentTools].map((t) => t.name),
    );
  });

  test('calls a tool over HTTP with --transport http at /api/mcp/rpc', async () => {
    const result = await inspect([
      `${svc.url}/api/mcp/rpc`,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'list_periods',
      '--tool-arg',
      'limit=1',
    ]);
    assert.notEqual(result.isError, true);
    assert.equal(result.structuredContent.periods.length, 1);
  });

  test('gets a prompt over HTTP', async () => {
    const result = await inspect([
      `${svc.url}/mcp`,
      '--method',
      'prompts/get',
      '--prompt-name',
      'weekly_sector_brief',
      '--prompt-args',
      'sector=robotics',
    ]);
    assert.match(result.messages[0].content.text, /robotics/i);
  });

  test('lists the tools over stdio (signal-mcp on the same data)', async () => {
    const env = [
      '-e',
      `DATA_DIR=${svc.storage.dataDir}`,
      ...(svc.storage.databaseUrl ? ['-e', `DATABASE_URL=${svc.storage.databaseUrl}`] : []),
      '-e',
      'LOG_LEVEL=warn',
    ];
    const result = await inspect([...env, TSX, path.join(ROOT, 'src/cli/mcp.ts'), '--method', 'tools/list']);
    assert.equal(result.tools.length, agentTools.length + alertAgentTools.length);
  });
});
