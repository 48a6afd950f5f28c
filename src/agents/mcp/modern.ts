import { createMcpHandler, type Server } from '@modelcontextprotocol/server';
import type { ToolInvoker } from '../invoke.js';
import type { CompletionSource } from './completions.js';
import { createLazyServer } from './modern-lazy.js';
import { mcpHandlersByMethod, type McpServerOptions } from './server.js';

/**
 * The server for 2026-07-28 requests: the 2.x SDK's Server with the very handlers of the 2025-11-25 server
 * (./server.ts), so both revisions list the same tools and give the same answers. The SDK adds what the revision asks
 * of a server: `server/discover`, the per-request `_meta` envelope, `resultType` and the cache fields.
 */
export function createModernMcpServer(
  invoke: ToolInvoker,
  completions: CompletionSource,
  options: McpServerOptions = {},
): Server {
  return createLazyServer(mcpHandlersByMethod(invoke, completions, options), options.baseUrl, options.version);
}

/**
 * Answers one 2026-07-28 HTTP request: a fresh server for it and nothing kept after, so any instance answers any
 * request (no session, no sticky routing). 2025-era requests never reach it (the route sends them to the 2025-11-25
 * transport), so its own legacy lane is off.
 */
export async function answerModernRequest(
  request: Request,
  invoke: ToolInvoker,
  completions: CompletionSource,
  options: McpServerOptions = {},
): Promise<Response> {
  const handler = createMcpHandler(() => createModernMcpServer(invoke, completions, options), {
    legacy: 'reject',
  });
  try {
    return await handler.fetch(request);
  } finally {
    await handler.close();
  }
}
