import { after, before, describe } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { localInvoker } from '../../../src/agents/invoke.js';
import { localCompletions } from '../../../src/agents/mcp/completions.js';
import { createMcpServer } from '../../../src/agents/mcp/server.js';
import { startTestApp, storedDemoPeriod, type TestApp } from '../../helpers/app.js';
import type { FakeGitHub } from '../../helpers/fake-github.js';
import { mcpConformance, scoutEnv, startScoutGitHub } from './suite.js';

/**
 * The MCP server the HTTP route builds, over a linked pair of in-memory transports: the protocol and the tools
 * without a socket or a process. The HTTP and stdio transports run the same conformance in their own files.
 */
describe('MCP over an in-memory transport (official MCP client)', () => {
  let app: TestApp;
  let github: FakeGitHub;
  let client: Client;
  before(async () => {
    github = await startScoutGitHub();
    app = await startTestApp(scoutEnv(github), { snapshot: storedDemoPeriod });
    const ctx = app.service.core;
    const server = createMcpServer(localInvoker(ctx, { authorization: undefined }), localCompletions(ctx));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'memory-test', version: '1.0.0' });
    await client.connect(clientSide);
  });
  after(async () => {
    await client?.close();
    await app?.close();
    await github?.close();
  });

  mcpConformance(
    async () => client,
    () => app,
  );
});
