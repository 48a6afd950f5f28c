import {
  A2A_VERSION_HEADER,
  Extensions,
  HTTP_EXTENSION_HEADER,
  formatSSEErrorEvent,
  formatSSEEvent,
} from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import {
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  defaultServerCallContextBuilder,
  validateVersion,
} from '@a2a-js/sdk/server';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { A2A_PATH, buildAgentCard, buildAgentCardJson } from '../../agents/a2a/card.js';
import { skillForText, skillRunner } from '../../agents/a2a/answers.js';
import { SignalAgentExecutor } from '../../agents/a2a/executor.js';
import { skillById } from '../../agents/a2a/skills.js';
import { SharedTaskStore } from '../../agents/a2a/task-store.js';
import { rendered } from '../../snapshot/snapshot.js';
import { sendRendered } from '../conditional.js';
import type { AppContext } from '../context.js';
import { documentOnly, keepJsonBodiesRaw } from '../raw-json.js';
import { JsonRpcMessage } from './mcp.js';

const LEGACY_VERSION = '0.3';

type RpcId = string | number | null;
const rpcError = (id: RpcId, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });

/** The id of a request, when it has a usable one (for echoing it in an error). */
function idOf(body: unknown): RpcId {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

function isRequestObject(body: unknown): body is { jsonrpc: '2.0'; method: string; id?: RpcId } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  const idOk =
    !('id' in b) || b.id === null || typeof b.id === 'string' || (typeof b.id === 'number' && Number.isInteger(b.id));
  return b.jsonrpc === '2.0' && typeof b.method === 'string' && b.method.length > 0 && idOk;
}

/**
 * A streaming method's answer (message/stream, SendStreamingMessage, tasks/resubscribe, SubscribeToTask) as
 * Server-Sent Events, as A2A's JSON-RPC binding says: one `data:` event per JSON-RPC response, each carrying one
 * event of the task (the task, an artifact update, a status update) as it is produced, and the stream closed after
 * the last. An error before the first event is a plain JSON-RPC error; one after it, an `event: error`.
 */
async function streamEvents(
  reply: FastifyReply,
  events: AsyncGenerator<unknown>,
  id: RpcId,
  mapError: (err: unknown) => unknown,
): Promise<FastifyReply> {
  let first: IteratorResult<unknown>;
  try {
    first = await events.next();
  } catch (err) {
    return reply
      .code(200)
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(JSON.stringify({ jsonrpc: '2.0', id, error: mapError(err) }));
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  let gone = false;
  raw.once('close', () => {
    gone = true;
    void events.return(undefined);
  });
  try {
    for (let next = first; !next.done && !gone; next = await events.next()) raw.write(formatSSEEvent(next.value));
  } catch (err) {
    if (!gone) raw.write(formatSSEErrorEvent({ jsonrpc: '2.0', id, error: mapError(err) }));
  } finally {
    raw.end();
  }
  return reply;
}

/**
 * A2A over JSON-RPC 2.0 at POST /api/a2a, with @a2a-js/sdk's framework-agnostic transport handlers: the v1.0
 * handler (`SendMessage`, `GetTask`, …) for requests that say `A2A-Version: 1.0`, and the v0.3 compatibility handler
 * (`message/send`, `tasks/get`, …) for the rest, since a request without the header is a 0.3 request. Parse errors
 * (−32700) and malformed requests (−32600) are answered here; the SDK answers unknown methods (−32601) and the rest.
 * JSON-RPC errors travel with HTTP 200.
 */
export async function a2aRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const cardJson = buildAgentCardJson(ctx.urls.base);
  const card = buildAgentCard(ctx.urls.base);
  const cardBody = rendered(JSON.stringify(cardJson), 'application/json; charset=utf-8');
  const textSkills = { startup: skillById('startup-signal')!, summary: skillById('summary')! };
  const requestHandler = new DefaultRequestHandler(
    card,
    new SharedTaskStore(ctx.services.a2aTasks, (err) =>
      ctx.log.warn({ err }, 'a2a task store: database not answering'),
    ),
    new SignalAgentExecutor({
      run: skillRunner(ctx),
      readText: (text) => skillForText(ctx.holder.published(), ctx.urls.base, text, textSkills),
    }),
  );
  const v1 = new JsonRpcTransportHandler(requestHandler);
  const legacy = new LegacyJsonRpcTransportHandler(requestHandler);

  app.withTypeProvider<ZodTypeProvider>().get(
    '/.well-known/agent-card.json',
    {
      schema: {
        summary: 'A2A agent card (protocol 1.0 and 0.3)',
        description: 'Five skills mapped to MCP tools; the JSON-RPC endpoint is POST /api/a2a.',
        tags: ['agents'],
        operationId: 'getAgentCard',
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    (request, reply) => sendRendered(request, reply, cardBody),
  );

  await app.register(async (scope) => {
    keepJsonBodiesRaw(scope);
    scope.withTypeProvider<ZodTypeProvider>().post(
      A2A_PATH,
      {
        validatorCompiler: documentOnly,
        schema: {
          summary: 'A2A JSON-RPC 2.0 endpoint',
          description:
            'v0.3 methods (`message/send`, `tasks/get`, `tasks/cancel`) by default, v1.0 methods (`SendMessage`, `GetTask`, …) with `A2A-Version: 1.0`. A message picks one of five skills from a data part `{"skill": …, "arguments": {…}}` or from its text (a tracked startup\'s name, a question the answer service can answer). Every message is answered by a finished Task, kept for a day (tasks/get); `message/stream` (`SendStreamingMessage` in 1.0) answers the same task as Server-Sent Events, one JSON-RPC response per event as it is produced (the task working, its artifact, its final status): `completed` with one artifact (a text part and the result as a data part); `failed` when it cannot be answered, its status message carrying the reason as text and `{error: {status, code, title, detail, errors?, purchaseUrl?, balance?}}` as data (the REST problem fields); `rejected` when the request is not one this agent serves (the status message lists the skills). Skill arguments: trending {period?, limit? 1–20}; sector {sector, period?, limit? 1–100}; startup-signal {name, and at most one of period, history: true, compare: [1–4 names], deep: true}; summary {at most one of period, periods: true, question, search (with type?, limit? 1–50)}; methodology {}. `deep: true` is the paid Deep Signal: `Authorization: Bearer <credit-pack key>` as on POST /api/agent/deep-signal, one credit per match, the balance in the task metadata `creditsBalance`; the `Idempotency-Key` header, or else the message id, makes a re-sent message replay its first answer without a second charge. Listing tasks is not offered. Errors are JSON-RPC errors with HTTP 200: −32700 parse error, −32600 invalid request, −32601 unknown method, −32001 unknown task.',
          tags: ['agents'],
          operationId: 'postA2a',
          body: JsonRpcMessage,
          response: {
            200: z
              .object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.int(), z.null()]) })
              .loose()
              .describe('A JSON-RPC 2.0 response: `result`, or `error` with a code.'),
          },
        },
      },
      async (request, reply) => {
        const send = (payload: unknown) =>
          (reply as FastifyReply)
            .code(200)
            .header('content-type', 'application/json; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(JSON.stringify(payload));
        let body: unknown;
        try {
          body = JSON.parse(typeof request.body === 'string' ? request.body : '');
        } catch {
          return send(rpcError(null, -32700, 'Parse error: the body is not valid JSON.'));
        }
        if (!isRequestObject(body)) {
          return send(rpcError(idOf(body), -32600, 'Invalid request: expected a JSON-RPC 2.0 request object.'));
        }
        const header = request.headers[A2A_VERSION_HEADER.toLowerCase()];
        const requestedVersion = typeof header === 'string' && header.trim() ? header.trim() : undefined;
        const useLegacy = (requestedVersion ?? LEGACY_VERSION) === LEGACY_VERSION;
        const mapError = useLegacy
          ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
          : JsonRpcTransportHandler.mapToJSONRPCError;
        try {
          const extensionsHeader = request.headers[HTTP_EXTENSION_HEADER.toLowerCase()];
          const context = defaultServerCallContextBuilder({
            extensions: Extensions.parseServiceParameter(
              typeof extensionsHeader === 'string' ? extensionsHeader : undefined,
            ),
            user: new UnauthenticatedUser(),
            headers: request.headers,
            requestedVersion,
          });
          validateVersion(context.requestedVersion, card, 'JSONRPC');
          const result = await (useLegacy ? legacy : v1).handle(body as Record<string, unknown>, context);
          if (typeof (result as AsyncGenerator)[Symbol.asyncIterator] === 'function') {
            return await streamEvents(reply, result as AsyncGenerator<unknown>, idOf(body), mapError);
          }
          return send(result);
        } catch (err) {
          return send({ jsonrpc: '2.0', id: idOf(body), error: mapError(err) });
        }
      },
    );
  });
}
