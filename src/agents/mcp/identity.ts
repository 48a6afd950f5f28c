import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { INTERFACE_VERSION } from '../../domain/license.js';

/**
 * Who the MCP server is and what it declares, with nothing else imported: the stdio command answers `initialize`
 * from this alone while the tools, their schemas and the data load behind it (src/agents/mcp/stdio.ts).
 */
export const MCP_SERVER_NAME = 'signal-service';

/** What the server declares: exactly what it serves (no listChanged, no subscribe: nothing is ever pushed). */
export const MCP_CAPABILITIES: ServerCapabilities = { tools: {}, resources: {}, prompts: {}, completions: {} };

export const MCP_INSTRUCTIONS =
  'Startup engineering-acceleration signals from public GitHub activity. Start with get_signals_summary or ' +
  'get_trending_startups; look one startup up with get_startup_signal; ask answers questions with citations; ' +
  'list_periods names the stored weeks, which the *_in_period tools take as `period`. get_deep_signal is paid (a ' +
  'credit-pack key); send `_meta.idempotencyKey` with it so that a retry is charged once.';

/** The server with its identity and capabilities, and no handlers yet. */
export function createBareMcpServer(version: string = INTERFACE_VERSION): Server {
  return new Server(
    { name: MCP_SERVER_NAME, title: 'Signal Service', version },
    { capabilities: MCP_CAPABILITIES, instructions: MCP_INSTRUCTIONS },
  );
}
