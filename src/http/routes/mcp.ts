import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { IdempotencyKey, idempotencyKeyOf, localInvoker } from '../../agents/invoke.js';
import { settleOnDelivery } from '../credit-hold.js';
import { localCompletions } from '../../agents/mcp/completions.js';
import { buildMcpManifest } from '../../agents/mcp/manifest.js';
import { buildServerJson, SERVER_JSON_PATH } from '../../agents/mcp/server-json.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { answerModernRequest } from '../../agents/mcp/modern.js';
import { createMcpServer } from '../../agents/mcp/server.js';
import { mcpX402 } from '../../agents/mcp/x402.js';
import { rendered } from '../../snapshot/snapshot.js';
import { sendRendered } from '../conditional.js';
import type { AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { ServiceError } from '../../domain/errors.js';
import { documentOnly, keepJsonBodiesRaw } from '../raw-json.js';

export const JsonRpcMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.int()]).optional(),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .loose()
  .meta({
    id: 'JsonRpcMessage',
    description: 'A JSON-RPC 2.0 request or notification (one per POST: batches are refused).',
  });

const JsonRpcResponse = z
  .object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.int(), z.null()]) })
  .loose()
  .meta({ id: 'JsonRpcResponse', description: 'A JSON-RPC 2.0 response: `result`, or `error` with a code.' });

/** Headers that describe the original connection, not the message, and must not be copied into the Web Request. */
const HOP_HEADERS = new Set(['connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

function webRequest(request: FastifyRequest, baseUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const body = typeof request.body === 'string' ? request.body : undefined;
  return new Request(`${baseUrl}${request.url}`, { method: request.method, headers, body });
}

async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name)) reply.header(name, value);
  });
  reply.header('cache-control', 'no-store');
  const text = await response.text();
  return reply.send(text);
}

/** A JSON-RPC error answered before any server sees the message. */
function jsonRpcRefusal(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json')
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** True for a body that is a JSON array: a JSON-RPC batch, which neither revision served here allows. */
function isBatch(body: unknown): boolean {
  return typeof body === 'string' && body.trimStart().startsWith('[');
}

/** The Streamable HTTP endpoint: the interface's path, and /mcp, where MCP clients look by default. */
export const MCP_HTTP_PATHS = ['/api/mcp/rpc', '/mcp'] as const;

/**
 * MCP over Streamable HTTP at /api/mcp/rpc (and /mcp), stateless: each POST gets a fresh server and transport (the SDK's
 * web-standard transport), answers in JSON, and is gone. The SDK enforces the Accept header, the
 * MCP-Protocol-Version header and, with the allowed origins below, the Origin of browser requests. GET would open an
 * event stream, which a stateless server has no use for: 405.
 */
export async function mcpRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const baseUrl = ctx.urls.base;
  const allowedOrigins = [new URL(baseUrl).origin, ...ctx.config.agents.mcpAllowedOrigins];
  const manifest = rendered(JSON.stringify(buildMcpManifest(ctx.urls.base)), 'application/json; charset=utf-8');

  const packageVersion = (
    JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
  ).version;
  const serverJson = rendered(
    JSON.stringify(buildServerJson(baseUrl, packageVersion), null, 2),
    'application/json; charset=utf-8',
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    SERVER_JSON_PATH,
    {
      schema: {
        summary: 'server.json for the official MCP Registry: the remote endpoint and the signal-mcp package',
        tags: ['agents'],
        operationId: 'getMcpServerJson',
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    (request, reply) => sendRendered(request, reply, serverJson),
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/.well-known/mcp.json',
    {
      schema: {
        summary: 'MCP server manifest: transports (stdio command, HTTP URL), tools and resources',
        tags: ['agents'],
        operationId: 'getMcpManifest',
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    (request, reply) => sendRendered(request, reply, manifest),
  );

  await app.register(async (scope) => {
    keepJsonBodiesRaw(scope);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const completions = localCompletions(ctx);
    // get_deep_signal sold per call with x402 over MCP, the MCP endpoint being the x402 resource.
    const x402 = mcpX402(ctx, ctx.urls.api('/mcp'));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const header = request.headers['idempotency-key'];
      const idempotencyKey = idempotencyKeyOf(Array.isArray(header) ? header.join(', ') : header);
      // A paid call answered in this request is held until the answer reaches the connection (credit-hold.ts).
      const holdCharge = {
        seconds: ctx.config.credits.holdSeconds,
        settle: (hold: number) => settleOnDelivery(ctx.store.db, reply.raw, hold),
      };
      const invoker = localInvoker(ctx, { authorization: request.headers.authorization }, holdCharge);
      const paid = x402 && { payments: x402, hasKey: request.headers.authorization !== undefined };
      // 2025-06-18 removed JSON-RPC batching and 2026-07-28 keeps it out: one message per POST.
      if (isBatch(request.body)) {
        return jsonRpcRefusal(reply, 400, -32600, 'JSON-RPC batches are not supported: send one message per POST.');
      }
      const web = webRequest(request, baseUrl);
      // The revision is told by the request itself (its _meta envelope and MCP-Protocol-Version), as 2026-07-28
      // specifies: 2026-07-28 requests go to the stateless server of that revision, everything else to 2025-11-25.
      if (!(await isLegacyRequest(web))) {
        const origin = request.headers.origin;
        if (origin !== undefined && !allowedOrigins.includes(origin)) {
          return jsonRpcRefusal(reply, 403, -32600, `Origin ${origin.slice(0, 200)} is not allowed.`);
        }
        const options = { idempotencyKey, baseUrl, x402: paid };
        return sendWebResponse(reply, await answerModernRequest(web, invoker, completions, options));
      }
      const server = createMcpServer(invoker, completions, { idempotencyKey, baseUrl, x402: paid });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        enableDnsRebindingProtection: true,
        allowedOrigins,
      });
      try {
        await server.connect(transport);
        const response = await transport.handleRequest(web);
        return await sendWebResponse(reply, response);
      } finally {
        await server.close().catch(() => {});
      }
    };
    const notAllowed = () => {
      throw new ServiceError('mcp-stateless', {}, { allow: 'POST, OPTIONS' });
    };
    const hidden = { schema: { hide: true } };
    for (const path of MCP_HTTP_PATHS) {
      r.post(
        path,
        {
          validatorCompiler: documentOnly,
          schema: {
            summary:
              path === '/mcp'
                ? 'MCP over Streamable HTTP at the path MCP clients try by default (same as /api/mcp/rpc)'
                : 'MCP over Streamable HTTP (stateless, JSON responses)',
            description:
              'Send one JSON-RPC 2.0 MCP message per POST (batches are refused), in revision 2025-11-25 (initialize first) or 2026-07-28 (server/discover, each request with its `_meta` envelope and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers): initialize, tools/list, tools/call, resources/list, resources/read, resources/templates/list, prompts/list, prompts/get, completion/complete) with `Accept: application/json, text/event-stream`. Browser requests must come from an allowed Origin. An unknown tool is a JSON-RPC error (−32602); a known tool that fails is a result with `isError: true`. get_deep_signal takes `Authorization: Bearer <API_KEY>`, and an `Idempotency-Key` header (or `_meta.idempotencyKey` in the tools/call) so that a retry is answered once and charged once; or, where the server has an x402 wallet, it is paid per call with x402 v2 (a call without key and payment answers the offer as an `isError` result whose structuredContent is the PaymentRequired object; the signed payment goes in the call\'s `_meta["x402/payment"]`, the settlement comes back in the result\'s `_meta["x402/payment-response"]`).',
            tags: ['agents'],
            operationId: path === '/mcp' ? 'postMcp' : 'postMcpRpc',
            headers: z.object({
              'idempotency-key': IdempotencyKey.optional().describe(
                'Optional, for get_deep_signal: a retry with the same key within 24 hours replays the first answer and is not charged again.',
              ),
            }),
            body: JsonRpcMessage,
            response: {
              200: JsonRpcResponse,
              202: z.null().describe('A notification or response was accepted (no body).'),
              400: JsonRpcResponse.describe(
                'Parse error, invalid request (a batch included), unsupported MCP-Protocol-Version, or 2026-07-28 headers that disagree with the body.',
              ),
              403: JsonRpcResponse.describe('Origin not allowed.'),
              406: JsonRpcResponse.describe('The Accept header lacks application/json and text/event-stream.'),
              ...errorResponses(413, 415),
            },
          },
        },
        handler,
      );
      r.get(path, hidden, notAllowed);
      r.delete(path, hidden, notAllowed);
      r.put(path, hidden, notAllowed);
    }
  });
}
