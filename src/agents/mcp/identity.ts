import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { INTERFACE_VERSION } from '../../domain/license.js';

/**
 * Who the MCP server is and what it declares, with nothing else imported: the stdio command answers `initialize`
 * from this alone while the tools, their schemas and the data load behind it (src/agents/mcp/stdio.ts).
 */
export const MCP_SERVER_NAME = 'signal-service';

/** What the server declares: exactly what it serves (no listChanged, no subscribe: nothing is ever pushed). */
export const MCP_CAPABILITIES = {
  tools: {},
  resources: {},
  prompts: {},
  completions: {},
} as const satisfies ServerCapabilities;

export const MCP_INSTRUCTIONS =
  'Startup engineering-acceleration signals from public GitHub activity. Start with get_signals_summary or ' +
  'get_trending_startups; look one startup up with get_startup_signal; ask answers questions with citations; ' +
  'list_periods names the stored weeks, which the *_in_period tools take as `period`. get_deep_signal is paid (a ' +
  'credit-pack key); send `_meta.idempotencyKey` with it so that a retry is charged once.';

export const MCP_SERVER_DESCRIPTION =
  'Startup engineering-acceleration signals from public GitHub activity: trending startups, sector rankings, ' +
  'single-startup lookups, diligence dossiers, scout scores, answers with citations and a paid Deep Signal.';

/**
 * Who the server is, as `initialize` (2025-11-25) and `server/discover` (2026-07-28) say it: with a deployment's
 * address, its home page and icon too.
 */
export function mcpImplementation(version: string = INTERFACE_VERSION, baseUrl?: string) {
  const home = baseUrl?.replace(/\/+$/, '');
  return {
    name: MCP_SERVER_NAME,
    title: 'Signal Service',
    version,
    description: MCP_SERVER_DESCRIPTION,
    ...(home
      ? {
          websiteUrl: `${home}/`,
          icons: [{ src: `${home}/assets/icon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }],
        }
      : {}),
  };
}

/** The server with its identity and capabilities, and no handlers yet. */
export function createBareMcpServer(version: string = INTERFACE_VERSION, baseUrl?: string): Server {
  return new Server(mcpImplementation(version, baseUrl), {
    capabilities: MCP_CAPABILITIES,
    instructions: MCP_INSTRUCTIONS,
  });
}

/** The requests the server answers (both revisions), with the 1.x SDK's schema of each. */
export const MCP_REQUESTS = [
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/templates/list', ListResourceTemplatesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
  ['prompts/list', ListPromptsRequestSchema],
  ['prompts/get', GetPromptRequestSchema],
  ['completion/complete', CompleteRequestSchema],
] as const;

export type McpMethod = (typeof MCP_REQUESTS)[number][0];
