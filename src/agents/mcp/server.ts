import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { INTERFACE_VERSION } from '../../domain/license.js';
import { ServiceError } from '../../domain/errors.js';
import type { ToolInvoker } from '../invoke.js';
import { jsonRpcError, toolErrorResult } from './errors.js';
import { agentTools, type AnyAgentTool } from '../registry.js';

/**
 * The MCP server, generated from the tool registry: the eight tools (strict input schemas, output schemas,
 * annotations), the resources signal://summary and signal://trending and the template signal://startup/{name}.
 * Transport-free: the stdio command and the HTTP route each connect their own transport, and each passes the
 * invoker that answers tools (in-process, or a remote deployment).
 */
export const MCP_SERVER_NAME = 'signal-service';

export const MCP_RESOURCES = [
  {
    name: 'summary',
    uri: 'signal://summary',
    title: 'Signals summary',
    description: 'The current period: meta, sectors with their sizes and the URL of every format.',
    tool: 'get_signals_summary',
  },
  {
    name: 'trending',
    uri: 'signal://trending',
    title: 'Trending startups',
    description: 'The top 20 startups of the current period across all sectors.',
    tool: 'get_trending_startups',
  },
] as const;

export const MCP_STARTUP_TEMPLATE = {
  name: 'startup',
  uriTemplate: 'signal://startup/{name}',
  title: 'One startup',
  description: 'The signal of one startup by display name or GitHub organisation (percent-encode the name).',
  tool: 'get_startup_signal',
} as const;

const INSTRUCTIONS =
  'Startup engineering-acceleration signals from public GitHub activity. Start with get_signals_summary or ' +
  'get_trending_startups; look one startup up with get_startup_signal. get_deep_signal is paid (a credit-pack key).';

async function callTool(invoke: ToolInvoker, name: string, args: unknown): Promise<CallToolResult> {
  try {
    const result = await invoke(name, args);
    // structuredContent for current clients, the same JSON as text for older ones.
    return { structuredContent: result, content: [{ type: 'text', text: JSON.stringify(result) }] };
  } catch (err) {
    if (err instanceof ServiceError) return toolErrorResult(err);
    throw err;
  }
}

async function readJson(invoke: ToolInvoker, uri: URL, tool: string, args: Record<string, unknown>) {
  try {
    const result = await invoke(tool, args);
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(result) }] };
  } catch (err) {
    if (err instanceof ServiceError) throw jsonRpcError(err);
    throw err;
  }
}

/** Template variables arrive still percent-encoded; a malformed escape is the caller's error. */
export function decodeTemplateVariable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join('/') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The name ${JSON.stringify(raw.slice(0, 100))} is not validly encoded.`,
    );
  }
}

export function createMcpServer(invoke: ToolInvoker, version = INTERFACE_VERSION): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Signal Service', version },
    { instructions: INSTRUCTIONS },
  );
  for (const tool of agentTools as readonly AnyAgentTool[]) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: { title: tool.title, ...tool.annotations },
      },
      (args: unknown) => callTool(invoke, tool.name, args),
    );
  }
  for (const resource of MCP_RESOURCES) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: 'application/json' },
      (uri) => readJson(invoke, uri, resource.tool, {}),
    );
  }
  server.registerResource(
    MCP_STARTUP_TEMPLATE.name,
    new ResourceTemplate(MCP_STARTUP_TEMPLATE.uriTemplate, { list: undefined }),
    { title: MCP_STARTUP_TEMPLATE.title, description: MCP_STARTUP_TEMPLATE.description, mimeType: 'application/json' },
    (uri, variables) =>
      readJson(invoke, uri, MCP_STARTUP_TEMPLATE.tool, { name: decodeTemplateVariable(variables.name) }),
  );
  return server;
}
