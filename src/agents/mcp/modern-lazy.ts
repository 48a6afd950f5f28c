import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, Server, type CacheHint, type RequestMethod } from '@modelcontextprotocol/server';
import { MCP_CAPABILITIES, MCP_INSTRUCTIONS, MCP_REQUESTS, mcpImplementation, type McpMethod } from './identity.js';

/** A handler of ./server.ts, by method (mcpHandlersByMethod). */
type Handler = (request: unknown, extra: unknown) => unknown;

/**
 * How long a client or a shared cache may keep a list result or a resource read (2026-07-28 `ttlMs`/`cacheScope`).
 * Nothing in them depends on the caller, and they change only when a new period is published (weekly) or the server
 * is upgraded: the hour the public REST surfaces are cached for.
 */
const PUBLIC_HOUR: CacheHint = { ttlMs: 3_600_000, cacheScope: 'public' };
export const MCP_CACHE_HINTS = {
  'tools/list': PUBLIC_HOUR,
  'prompts/list': PUBLIC_HOUR,
  'resources/list': PUBLIC_HOUR,
  'resources/templates/list': PUBLIC_HOUR,
  'resources/read': PUBLIC_HOUR,
  'server/discover': PUBLIC_HOUR,
} as const;

/** An error of the 1.x SDK (the handlers' own) as the 2.x SDK writes it on the wire: same code, message and data. */
function modernError(err: unknown): unknown {
  return err instanceof McpError ? new ProtocolError(err.code, err.message, err.data) : err;
}

/**
 * A server of the 2.x SDK (which speaks 2026-07-28 and 2025-11-25) answering with the handlers of ./server.ts, so
 * every revision and transport lists the same tools and gives the same answers. The handlers may still be loading:
 * a request waits for them, and the server's identity and capabilities answer the opening at once. This module
 * imports nothing of the registry, so the stdio command can answer before the tools are loaded.
 */
export function createLazyServer(
  handlers: Promise<Map<McpMethod, Handler>> | Map<McpMethod, Handler>,
  baseUrl?: string,
  version?: string,
): Server {
  const server = new Server(mcpImplementation(version, baseUrl), {
    capabilities: MCP_CAPABILITIES,
    instructions: MCP_INSTRUCTIONS,
    cacheHints: MCP_CACHE_HINTS,
  });
  for (const [method] of MCP_REQUESTS) {
    server.setRequestHandler(method as RequestMethod, async (request: unknown, ctx: unknown) => {
      const handler = (await handlers).get(method);
      if (!handler) throw new Error(`No handler for ${method}`);
      try {
        return (await handler(request, ctx)) as never;
      } catch (err) {
        throw modernError(err);
      }
    });
  }
  return server;
}
